/*
 * test_auth.c - iperf3's credentials (src/engine/auth.c): the hash of
 * "{user}password", the users file as iperf3 reads it, the token's exact
 * plaintext and both paddings, what a token that is not one gets, the skew
 * window; and serve's sharing consent (src/peer/consent.c): --share-from
 * networks, IPv4-mapped peers, loopback, who is told why.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/share.h"

/* printf '{alice}secret' | sha256sum */
#define ALICE_HASH "27b307f21eb6137ab56a3c80a93a5db840e79a697f80f3381c87edaa79a83f6f"

struct keys {
	EVP_PKEY *pkey;
	struct nd_auth_key *private_key, *public_key;
	char dir[64];
};

static struct nd_auth_key *load(struct keys *k, bool private_key)
{
	char path[128], err[200];
	struct nd_auth_key *key = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.pem", k->dir, private_key ? "priv" : "pub");
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(private_key ? PEM_write_PrivateKey(f, k->pkey, NULL, NULL, 0, NULL, NULL)
				: PEM_write_PUBKEY(f, k->pkey));
	fclose(f);
	assert_int_equal(nd_auth_key_load(path, private_key, &key, err, sizeof(err)), 0);
	/* A public key is not a private one and the reverse. */
	assert_int_equal(nd_auth_key_load(path, !private_key, &(struct nd_auth_key *){ NULL },
					  err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "is not a PEM RSA"));
	unlink(path);
	return key;
}

static int setup(void **state)
{
	struct keys *k = calloc(1, sizeof(*k));

	snprintf(k->dir, sizeof(k->dir), "/tmp/nd-test-auth.XXXXXX");
	if (!mkdtemp(k->dir) || !(k->pkey = EVP_RSA_gen(2048)))
		return -1;
	k->private_key = load(k, true);
	k->public_key = load(k, false);
	*state = k;
	return 0;
}

static int teardown(void **state)
{
	struct keys *k = *state;

	nd_auth_key_free(k->private_key);
	nd_auth_key_free(k->public_key);
	EVP_PKEY_free(k->pkey);
	rmdir(k->dir);
	free(k);
	return 0;
}

static void test_hash(void **state)
{
	char hex[65];

	(void)state;
	assert_int_equal(nd_auth_hash("alice", "secret", hex), 0);
	assert_string_equal(hex, ALICE_HASH);
}

static bool users(const char *text, const char *user, const char *password)
{
	return nd_auth_users_match(text, strlen(text), user, password);
}

/* As check_authentication() reads it: comments, blanks, CRLF, strtok. */
static void test_users_file(void **state)
{
	(void)state;
	assert_true(users("alice," ALICE_HASH "\n", "alice", "secret"));
	assert_true(users("# users\n\nbob,0000\r\nalice," ALICE_HASH "\r\n", "alice", "secret"));
	assert_true(users("alice," ALICE_HASH, "alice", "secret"));	/* no line end */
	assert_true(users("alice," ALICE_HASH ",extra\n", "alice", "secret"));
	assert_true(users(",,alice,," ALICE_HASH "\n", "alice", "secret"));	/* strtok */
	assert_false(users("alice," ALICE_HASH "\n", "alice", "wrong"));
	assert_false(users("alice," ALICE_HASH "\n", "bob", "secret"));
	assert_false(users("#alice," ALICE_HASH "\n", "alice", "secret"));
	assert_false(users(" alice," ALICE_HASH "\n", "alice", "secret"));
	assert_false(users("alice,27B307F21EB6137AB56A3C80A93A5DB840E79A697F80F3381C87EDAA79A83F6F\n",
			   "alice", "secret"));	/* iperf3 compares with strcmp */
	assert_false(users("alice,\nalice\n,\n", "alice", "secret"));
	assert_false(users("alice," ALICE_HASH "0\n", "alice", "secret"));
	assert_false(users("", "alice", "secret"));
	/* A NUL ends a line's text; the next line still counts. */
	static const char nul[] = "x\0y\nalice," ALICE_HASH "\n";
	assert_true(nd_auth_users_match(nul, sizeof(nul) - 1, "alice", "secret"));
}

/* Decrypt a token with OpenSSL alone: what iperf3's server would see. */
static char *decrypt(EVP_PKEY *pkey, const char *token, bool pkcs1)
{
	unsigned char cipher[512], *plain = calloc(1, 512);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	size_t len = 511;
	int n = EVP_DecodeBlock(cipher, (const unsigned char *)token, (int)strlen(token));

	assert_int_equal(n, 258);	/* 2048 bits, and the two bytes of "==" */
	assert_int_equal(EVP_PKEY_decrypt_init(ctx), 1);
	assert_true(EVP_PKEY_CTX_set_rsa_padding(ctx, pkcs1 ? RSA_PKCS1_PADDING
							    : RSA_PKCS1_OAEP_PADDING) > 0);
	assert_int_equal(EVP_PKEY_decrypt(ctx, plain, &len, cipher, 256), 1);
	EVP_PKEY_CTX_free(ctx);
	return (char *)plain;
}

static void test_token_format_both_paddings(void **state)
{
	struct keys *k = *state;
	struct nd_auth_client c = { .username = "alice", .password = "secret",
				    .public_key = k->public_key };
	char *token = NULL, *plain, user[64], pw[64], err[200];
	int64_t ts = 0;

	for (int pkcs1 = 0; pkcs1 < 2; pkcs1++) {
		c.pkcs1 = pkcs1;
		assert_int_equal(nd_auth_token_make(&c, 1700000000, &token, err, sizeof(err)), 0);
		assert_int_equal(strlen(token), 344);
		plain = decrypt(k->pkey, token, pkcs1);
		assert_string_equal(plain, "user: alice\npwd:  secret\nts:   1700000000");
		free(plain);
		assert_int_equal(nd_auth_token_read(k->private_key, pkcs1, token, user, sizeof(user),
						    pw, sizeof(pw), &ts), 0);
		assert_string_equal(user, "alice");
		assert_string_equal(pw, "secret");
		assert_int_equal(ts, 1700000000);
		/* The other padding does not decrypt it. */
		assert_int_equal(nd_auth_token_read(k->private_key, !pkcs1, token, user,
						    sizeof(user), pw, sizeof(pw), &ts), -EBADMSG);
		/* One character changed: no longer a token. */
		token[10] = token[10] == 'A' ? 'B' : 'A';
		assert_int_equal(nd_auth_token_read(k->private_key, pkcs1, token, user,
						    sizeof(user), pw, sizeof(pw), &ts), -EBADMSG);
		free(token);
	}
}

/* What the client cannot send in iperf3's "%s" fields. */
static void test_token_refuses_blanks(void **state)
{
	struct keys *k = *state;
	struct nd_auth_client c = { .username = "alice", .password = "two words",
				    .public_key = k->public_key };
	char *token = NULL, err[200];

	assert_int_equal(nd_auth_token_make(&c, 1, &token, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "password"));
	c.password[0] = '\0';
	assert_int_equal(nd_auth_token_make(&c, 1, &token, err, sizeof(err)), -EINVAL);
	strcpy(c.password, "x");
	c.username = "";
	assert_int_equal(nd_auth_token_make(&c, 1, &token, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "user name"));
	assert_null(token);
}

/* Base64 of this plaintext encrypted with OAEP. */
static char *token_of(EVP_PKEY *pkey, const char *text)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	unsigned char cipher[256];
	size_t len = sizeof(cipher);
	char *token = calloc(1, 400);

	assert_int_equal(EVP_PKEY_encrypt_init(ctx), 1);
	assert_true(EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) > 0);
	assert_int_equal(EVP_PKEY_encrypt(ctx, cipher, &len, (const unsigned char *)text,
					  strlen(text)), 1);
	EVP_PKEY_CTX_free(ctx);
	EVP_EncodeBlock((unsigned char *)token, cipher, (int)len);
	return token;
}

/* sscanf's blanks match any white space, as in iperf3: "ts: 17" is a token. */
static void test_token_not_a_token(void **state)
{
	static const char *const texts[] = {
		"user: alice\npwd:  secret\nts:   x",	/* no time */
		"user:alice pwd: secret",
		"user: alice\npwd:  secret",
		"hello",
		/* longer than the caller's buffer */
		("user: aliceXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n"
		 "pwd:  secret\nts:   1"),
	};
	static const char *const garbage[] = {
		"", "QUFB=", "!!!!", "QUFB QUFB", "QUFBQQ==", "====",
	};
	struct keys *k = *state;
	char user[32], pw[32];
	int64_t ts;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *token = token_of(k->pkey, texts[i]);

		assert_int_equal(nd_auth_token_read(k->private_key, false, token, user,
						    sizeof(user), pw, sizeof(pw), &ts), -EBADMSG);
		free(token);
	}
	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++)
		assert_int_equal(nd_auth_token_read(k->private_key, false, garbage[i], user,
						    sizeof(user), pw, sizeof(pw), &ts), -EBADMSG);
}

static void test_check_skew_and_users(void **state)
{
	struct keys *k = *state;
	struct nd_auth_client c = { .username = "alice", .password = "secret",
				    .public_key = k->public_key };
	char path[128], user[64], why[300], *token = NULL;
	struct nd_auth_server s = { .private_key = k->private_key, .users_path = path,
				    .skew_threshold_sec = 10 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/users.csv", k->dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("# test\nalice," ALICE_HASH "\n", f);
	fclose(f);
	assert_int_equal(nd_auth_token_make(&c, 1000, &token, why, sizeof(why)), 0);
	/* Within 10 s either way: in; 11 s: out, as iperf3's "> threshold". */
	assert_int_equal(nd_auth_check(&s, token, 1010, user, sizeof(user), why, sizeof(why)), 0);
	assert_string_equal(user, "alice");
	assert_int_equal(nd_auth_check(&s, token, 990, user, sizeof(user), why, sizeof(why)), 0);
	assert_int_equal(nd_auth_check(&s, token, 1011, user, sizeof(user), why, sizeof(why)),
			 -EACCES);
	assert_string_equal(why, "authentication of 'alice' failed: its clock is 11 s behind "
			    "the server's (more than --time-skew-threshold 10)");
	assert_int_equal(nd_auth_check(&s, token, 989, user, sizeof(user), why, sizeof(why)),
			 -EACCES);
	assert_non_null(strstr(why, "11 s ahead of"));
	assert_int_equal(nd_auth_check(&s, NULL, 1000, user, sizeof(user), why, sizeof(why)),
			 -EACCES);
	assert_non_null(strstr(why, "sent no credentials"));
	/* The file is read for every check: a user removed is refused at once. */
	f = fopen(path, "w");
	fputs("bob," ALICE_HASH "\n", f);
	fclose(f);
	assert_int_equal(nd_auth_check(&s, token, 1000, user, sizeof(user), why, sizeof(why)),
			 -EACCES);
	assert_non_null(strstr(why, "no such user with this password"));
	assert_null(strstr(why, "secret"));
	unlink(path);
	assert_int_equal(nd_auth_check(&s, token, 1000, user, sizeof(user), why, sizeof(why)),
			 -EACCES);
	assert_non_null(strstr(why, "cannot read"));
	free(token);
}

static struct sockaddr_in6 v6(const char *text)
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6 };

	assert_int_equal(inet_pton(AF_INET6, text, &sa.sin6_addr), 1);
	return sa;
}

static struct sockaddr_in v4(const char *text)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	assert_int_equal(inet_pton(AF_INET, text, &sa.sin_addr), 1);
	return sa;
}

#define SA(x) ((const struct sockaddr *)&(x))

static void test_share_from(void **state)
{
	static const char *const bad[] = {
		"10.0.0.0/33", "fd00::/129", "nonsense", "10.0.0.0/", "/8", ",", "10.0.0.0/-1",
		"10.0.0.0/8x", "",
	};
	struct nd_share_policy pol = { .share = true };
	struct sockaddr_in a;
	struct sockaddr_in6 b;
	char err[200];

	(void)state;
	assert_int_equal(nd_share_parse_nets("10.1.2.3/8,192.0.2.7,fd77:62::/64", &pol, err,
					     sizeof(err)), 0);
	assert_int_equal(pol.nets_count, 3);
	a = v4("10.200.0.1");
	assert_true(nd_share_nets_match(&pol, SA(a)));		/* host bits cleared */
	a = v4("11.0.0.1");
	assert_false(nd_share_nets_match(&pol, SA(a)));
	a = v4("192.0.2.7");
	assert_true(nd_share_nets_match(&pol, SA(a)));
	a = v4("192.0.2.8");
	assert_false(nd_share_nets_match(&pol, SA(a)));
	b = v6("::ffff:10.9.9.9");				/* a dual-stack socket */
	assert_true(nd_share_nets_match(&pol, SA(b)));
	b = v6("fd77:62::1234");
	assert_true(nd_share_nets_match(&pol, SA(b)));
	b = v6("fd77:63::1");
	assert_false(nd_share_nets_match(&pol, SA(b)));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nd_share_policy p = { 0 };

		assert_int_equal(nd_share_parse_nets(bad[i], &p, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--share-from"));
	}
	memset(&pol, 0, sizeof(pol));
	assert_int_equal(nd_share_parse_nets("0.0.0.0/0,::/0", &pol, err, sizeof(err)), 0);
	a = v4("203.0.113.9");
	assert_true(nd_share_nets_match(&pol, SA(a)));
}

static void test_share_allowed(void **state)
{
	struct nd_share_policy pol = { 0 };
	struct sockaddr_in lo = v4("127.0.0.5"), far = v4("192.0.2.200");
	struct sockaddr_in6 lo6 = v6("::1"), mapped = v6("::ffff:127.0.0.1");
	char why[300], err[100];

	(void)state;
	assert_false(nd_share_allowed(&pol, SA(lo), true, why, sizeof(why)));
	assert_non_null(strstr(why, "without --share"));
	pol.share = true;
	assert_true(nd_share_allowed(&pol, SA(lo), false, why, sizeof(why)));
	assert_true(nd_share_allowed(&pol, SA(lo6), false, why, sizeof(why)));
	assert_true(nd_share_allowed(&pol, SA(mapped), false, why, sizeof(why)));
	assert_false(nd_share_allowed(&pol, SA(far), false, why, sizeof(why)));
	assert_non_null(strstr(why, "--share-from"));
	assert_int_equal(nd_share_parse_nets("192.0.2.0/24", &pol, err, sizeof(err)), 0);
	assert_true(nd_share_allowed(&pol, SA(far), false, why, sizeof(why)));
	/* With authentication the address does not matter, the credential does. */
	pol.auth_required = true;
	assert_false(nd_share_allowed(&pol, SA(lo), false, why, sizeof(why)));
	assert_non_null(strstr(why, "authenticated"));
	assert_true(nd_share_allowed(&pol, SA(far), true, why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_users_file),
		cmocka_unit_test(test_token_format_both_paddings),
		cmocka_unit_test(test_token_refuses_blanks),
		cmocka_unit_test(test_token_not_a_token),
		cmocka_unit_test(test_check_skew_and_users),
		cmocka_unit_test(test_share_from),
		cmocka_unit_test(test_share_allowed),
	};

	return cmocka_run_group_tests_name("auth", tests, setup, teardown);
}
