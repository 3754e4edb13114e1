/*
 * fuzz_auth.c - libFuzzer target for what `serve` parses of a client's
 * credentials and of its authorized users file (engine/auth.c).  The first
 * byte picks what the rest is: 0 a users file, 1 an "authtoken" string,
 * 2 the plaintext inside a token (encrypted here with the target's own
 * key, so the text parser behind the RSA step is reached).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "nicdoctor/auth.h"

static struct nd_auth_key *private_key;
static EVP_PKEY *pkey;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A fresh key per run, through the PEM loader serve uses. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[] = "/tmp/fuzz_auth.XXXXXX", err[200];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	(void)argc, (void)argv;
	pkey = EVP_RSA_gen(2048);
	if (!f || !pkey || !PEM_write_PrivateKey(f, pkey, NULL, NULL, 0, NULL, NULL))
		abort();
	fclose(f);
	if (nd_auth_key_load(path, true, &private_key, err, sizeof(err)) < 0)
		abort();
	unlink(path);
	return 0;
}

static void read_token(const char *token)
{
	char user[ND_AUTH_FIELD_MAX], password[ND_AUTH_FIELD_MAX];
	int64_t ts;

	nd_auth_token_read(private_key, false, token, user, sizeof(user), password,
			   sizeof(password), &ts);
	nd_auth_token_read(private_key, true, token, user, sizeof(user), password,
			   sizeof(password), &ts);
}

/* Encrypt the bytes as a client would, then read the token back. */
static void plaintext(const uint8_t *data, size_t size)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	unsigned char cipher[512];
	char token[4 * sizeof(cipher) / 3 + 4];
	size_t cipher_len = sizeof(cipher);

	if (size > 200)
		size = 200;	/* what OAEP carries in a 2048-bit block */
	if (ctx && EVP_PKEY_encrypt_init(ctx) > 0 &&
	    EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) > 0 &&
	    EVP_PKEY_encrypt(ctx, cipher, &cipher_len, data, size) > 0) {
		EVP_EncodeBlock((unsigned char *)token, cipher, (int)cipher_len);
		read_token(token);
	}
	EVP_PKEY_CTX_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	if (data[0] % 3 == 2) {
		plaintext(data + 1, size - 1);
		return 0;
	}
	/* An exact-size copy: ASan sees any read past the input. */
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (data[0] % 3 == 0) {
		nd_auth_users_match(text, size - 1, "alice", "secret");
		nd_auth_users_match(text, size - 1, "", "");
	} else {
		read_token(text);
	}
	free(text);
	return 0;
}
