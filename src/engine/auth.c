/*
 * auth.c - iperf3's authentication through OpenSSL: the credential token
 * both ways (RSA, base64), the authorized users file and the server's
 * check, byte for byte as iperf3 3.21 does it (see auth.h), so a stock
 * client authenticates against `serve` and `bench` against a stock server.
 * Unlike 3.21 every length is checked before it is used.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "nicdoctor/auth.h"
#include "nicdoctor/common.h"
#include "nicdoctor/sanitize.h"

/* iperf_auth.c's auth_text_format: note the two blanks after "pwd:". */
#define AUTH_TEXT_FORMAT "user: %s\npwd:  %s\nts:   %" PRId64
#define AUTH_SCAN_FORMAT "user: %s\npwd:  %s\nts:   %" SCNd64

struct nd_auth_key {
	EVP_PKEY *pkey;
};

const char *nd_auth_library_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

/* serve must never stop to ask for a passphrase on a terminal. */
static int no_passphrase(char *buf, int size, int rwflag, void *arg)
{
	(void)buf, (void)size, (void)rwflag, (void)arg;
	return -1;
}

int nd_auth_key_load(const char *path, bool private_key, struct nd_auth_key **ret_key,
		     char *err, size_t err_size)
{
	const char *what = private_key ? "private" : "public";
	struct nd_auth_key *key;
	EVP_PKEY *pkey;
	BIO *bio;

	bio = BIO_new_file(path, "r");
	if (!bio) {
		snprintf(err, err_size, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
		ERR_clear_error();
		return -ENOENT;
	}
	pkey = private_key ? PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL)
			   : PEM_read_bio_PUBKEY(bio, NULL, no_passphrase, NULL);
	BIO_free(bio);
	ERR_clear_error();
	if (!pkey || EVP_PKEY_base_id(pkey) != EVP_PKEY_RSA) {
		snprintf(err, err_size, "'%s' is not a PEM RSA %s key%s", path, what,
			 private_key ? " without a passphrase" : "");
		EVP_PKEY_free(pkey);
		return -EBADMSG;
	}
	key = calloc(1, sizeof(*key));
	if (!key) {
		EVP_PKEY_free(pkey);
		return -ENOMEM;
	}
	key->pkey = pkey;
	*ret_key = key;
	return 0;
}

void nd_auth_key_free(struct nd_auth_key *key)
{
	if (!key)
		return;
	EVP_PKEY_free(key->pkey);
	free(key);
}

/* Non-empty, no white space (the server reads each with sscanf's %s). */
static bool field_ok(const char *s)
{
	if (!s || !*s || strlen(s) >= ND_AUTH_FIELD_MAX)
		return false;
	for (; *s; s++)
		if (isspace((unsigned char)*s))
			return false;
	return true;
}

/* Strip the line end as iperf_getpass does: at the first '\r' or '\n'. */
static void cut_line_end(char *s)
{
	s[strcspn(s, "\r\n")] = '\0';
}

static int password_from_tty(char *buf, size_t size, char *err, size_t err_size)
{
	struct termios old, quiet;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &old) != 0) {
		snprintf(err, err_size, "no password: set IPERF3_PASSWORD or run on a terminal");
		return -ENOTTY;
	}
	quiet = old;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) != 0) {
		snprintf(err, err_size, "cannot turn off the terminal's echo: %s", strerror(errno));
		return -errno;
	}
	/* On stderr: with -J, stdout is the JSON document. */
	fputs("Password: ", stderr);
	fflush(stderr);
	n = getline(&line, &cap, stdin);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
	fputc('\n', stderr);
	if (n < 0) {
		free(line);
		snprintf(err, err_size, "no password read from the terminal");
		return -EIO;
	}
	cut_line_end(line);
	n = (ssize_t)nd_strlcpy(buf, line, size);
	OPENSSL_cleanse(line, cap);
	free(line);
	if ((size_t)n >= size) {
		snprintf(err, err_size, "password longer than %zu bytes", size - 1);
		return -E2BIG;
	}
	return 0;
}

int nd_auth_read_password(struct nd_auth_client *c, char *err, size_t err_size)
{
	const char *env = getenv("IPERF3_PASSWORD");

	if (!env)
		return password_from_tty(c->password, sizeof(c->password), err, err_size);
	if (nd_strlcpy(c->password, env, sizeof(c->password)) >= sizeof(c->password)) {
		snprintf(err, err_size, "IPERF3_PASSWORD is longer than %zu bytes",
			 sizeof(c->password) - 1);
		return -E2BIG;
	}
	return 0;
}

int nd_auth_client_setup(struct nd_auth_client *c, const char *username,
			 const char *public_key_path, char *err, size_t err_size)
{
	int rc;

	c->public_key = NULL;
	if (!username && !public_key_path) {
		if (!c->pkcs1)
			return 0;
		snprintf(err, err_size, "--use-pkcs1-padding needs --username and "
			 "--rsa-public-key-path");
		return -EINVAL;
	}
	if (!username || !public_key_path) {
		snprintf(err, err_size, "--username and --rsa-public-key-path go together");
		return -EINVAL;
	}
	if (!field_ok(username)) {
		snprintf(err, err_size, "--username must be 1 to %d bytes without white space",
			 ND_AUTH_FIELD_MAX - 1);
		return -EINVAL;
	}
	c->username = username;
	rc = nd_auth_key_load(public_key_path, false, &c->public_key, err, err_size);
	if (rc == 0)
		rc = nd_auth_read_password(c, err, err_size);
	if (rc == 0 && !field_ok(c->password)) {
		snprintf(err, err_size, "the password must be 1 to %d bytes without white space "
			 "(iperf3's credential format cannot carry it)", ND_AUTH_FIELD_MAX - 1);
		rc = -EINVAL;
	}
	if (rc < 0)
		nd_auth_client_clear(c);
	return rc;
}

void nd_auth_client_clear(struct nd_auth_client *c)
{
	OPENSSL_cleanse(c->password, sizeof(c->password));
	nd_auth_key_free(c->public_key);
	c->public_key = NULL;
}

/* One RSA operation with the key's padding; *ret_out is malloc'd. */
static int rsa_crypt(EVP_PKEY *pkey, bool encrypt, bool pkcs1, const unsigned char *in,
		     size_t in_len, unsigned char **ret_out, size_t *ret_len)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	unsigned char *out = NULL;
	size_t out_len = 0;
	int ok;

	ok = ctx && (encrypt ? EVP_PKEY_encrypt_init(ctx) : EVP_PKEY_decrypt_init(ctx)) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, pkcs1 ? RSA_PKCS1_PADDING
						     : RSA_PKCS1_OAEP_PADDING) > 0;
	if (ok)
		ok = (encrypt ? EVP_PKEY_encrypt(ctx, NULL, &out_len, in, in_len)
			      : EVP_PKEY_decrypt(ctx, NULL, &out_len, in, in_len)) > 0;
	if (ok)
		ok = (out = malloc(out_len + 1)) != NULL;
	if (ok)
		ok = (encrypt ? EVP_PKEY_encrypt(ctx, out, &out_len, in, in_len)
			      : EVP_PKEY_decrypt(ctx, out, &out_len, in, in_len)) > 0;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	if (!ok) {
		free(out);
		return -EBADMSG;
	}
	out[out_len] = '\0';
	*ret_out = out;
	*ret_len = out_len;
	return 0;
}

int nd_auth_token_make(const struct nd_auth_client *c, int64_t ts, char **ret_token,
		       char *err, size_t err_size)
{
	char text[2 * ND_AUTH_FIELD_MAX + 64];
	unsigned char *cipher = NULL;
	size_t cipher_len = 0;
	char *token;
	int rc;

	if (!field_ok(c->username) || !field_ok(c->password)) {
		snprintf(err, err_size, "the %s must be 1 to %d bytes without white space "
			 "(iperf3's credential format cannot carry it)",
			 field_ok(c->username) ? "password" : "user name", ND_AUTH_FIELD_MAX - 1);
		return -EINVAL;
	}
	snprintf(text, sizeof(text), AUTH_TEXT_FORMAT, c->username, c->password, ts);
	rc = rsa_crypt(c->public_key->pkey, true, c->pkcs1, (const unsigned char *)text,
		       strlen(text), &cipher, &cipher_len);
	OPENSSL_cleanse(text, sizeof(text));
	if (rc < 0) {
		snprintf(err, err_size, "cannot encrypt the credentials with the public key "
			 "(a key too small for a user name and password this long?)");
		return -EIO;
	}
	token = malloc(4 * ((cipher_len + 2) / 3) + 1);
	if (token)
		EVP_EncodeBlock((unsigned char *)token, cipher, (int)cipher_len);
	free(cipher);
	if (!token)
		return -ENOMEM;
	*ret_token = token;
	return 0;
}

/* Standard base64 with padding, as iperf3's BIO encoder writes it. */
static int base64_decode(const char *text, unsigned char **ret_bytes, size_t *ret_len)
{
	size_t len = strlen(text), pad = 0;
	unsigned char *bytes;
	int n;

	if (len == 0 || len > ND_AUTH_TOKEN_MAX || len % 4)
		return -EBADMSG;
	pad = (text[len - 1] == '=') + (text[len - 2] == '=');
	bytes = malloc(len / 4 * 3 + 1);
	if (!bytes)
		return -ENOMEM;
	n = EVP_DecodeBlock(bytes, (const unsigned char *)text, (int)len);
	if (n < (int)pad || strcspn(text, " \t\r\n\f\v") != len) {
		free(bytes);
		return -EBADMSG;
	}
	*ret_bytes = bytes;
	*ret_len = (size_t)n - pad;
	return 0;
}

int nd_auth_token_read(const struct nd_auth_key *private_key, bool pkcs1, const char *token,
		       char *user, size_t user_size, char *password, size_t password_size,
		       int64_t *ret_ts)
{
	unsigned char *cipher = NULL, *plain = NULL;
	size_t cipher_len, plain_len = 0;
	char *u = NULL, *pw = NULL;
	int64_t ts = 0;
	int rc = base64_decode(token, &cipher, &cipher_len);

	if (rc == 0) {
		rc = rsa_crypt(private_key->pkey, false, pkcs1, cipher, cipher_len, &plain,
			       &plain_len);
		free(cipher);
	}
	if (rc < 0)
		return rc;
	/* Each field is shorter than the whole text: %s cannot overrun. */
	u = calloc(1, plain_len + 1);
	pw = calloc(1, plain_len + 1);
	if (!u || !pw)
		rc = -ENOMEM;
	else if (sscanf((const char *)plain, AUTH_SCAN_FORMAT, u, pw, &ts) != 3 ||
		 strlen(u) >= user_size || strlen(pw) >= password_size)
		rc = -EBADMSG;
	if (rc == 0) {
		nd_strlcpy(user, u, user_size);
		nd_strlcpy(password, pw, password_size);
		*ret_ts = ts;
	}
	OPENSSL_cleanse(plain, plain_len);
	if (pw)
		OPENSSL_cleanse(pw, plain_len);
	free(plain);
	free(u);
	free(pw);
	return rc;
}

int nd_auth_hash(const char *user, const char *password, char hex[65])
{
	char salted[2 * ND_AUTH_FIELD_MAX + 3];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned md_len = 0;
	int n = snprintf(salted, sizeof(salted), "{%s}%s", user, password);

	if (n < 0 || (size_t)n >= sizeof(salted))
		return -E2BIG;
	if (!EVP_Digest(salted, (size_t)n, md, &md_len, EVP_sha256(), NULL) || md_len != 32) {
		OPENSSL_cleanse(salted, sizeof(salted));
		return -EIO;
	}
	OPENSSL_cleanse(salted, sizeof(salted));
	for (unsigned i = 0; i < md_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	hex[64] = '\0';
	return 0;
}

/* One line of the users file, as check_authentication() reads it. */
static bool line_matches(char *line, const char *user, const char *hash)
{
	char *save = NULL, *name, *value;

	cut_line_end(line);
	if (!line[0] || !strchr(line, ',') || line[0] == '#')
		return false;
	name = strtok_r(line, ",", &save);
	value = name ? strtok_r(NULL, ",", &save) : NULL;
	return value && strcmp(name, user) == 0 && strlen(value) == 64 &&
	       CRYPTO_memcmp(value, hash, 64) == 0;
}

bool nd_auth_users_match(const char *text, size_t len, const char *user, const char *password)
{
	char hash[65], *line;
	bool found = false;
	size_t pos = 0;

	if (nd_auth_hash(user, password, hash) < 0 || !(line = malloc(len + 1)))
		return false;
	while (!found && pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		memcpy(line, text + pos, n);
		line[n] = '\0';
		found = line_matches(line, user, hash);
		pos += n + 1;
	}
	free(line);
	return found;
}

int nd_auth_users_read(const char *path, char **ret_text, size_t *ret_len, char *err,
		       size_t err_size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	size_t got = 0;
	char *text;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;

		snprintf(err, err_size, "cannot read '%s': %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > ND_AUTH_USERS_MAX) {
		snprintf(err, err_size, "cannot read '%s': %s", path, S_ISREG(st.st_mode) ?
			 "larger than 1 MiB" : "not a regular file");
		close(fd);
		return -EINVAL;
	}
	text = malloc((size_t)st.st_size + 1);
	while (text && got < (size_t)st.st_size) {
		ssize_t n = read(fd, text + got, (size_t)st.st_size - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!text)
		return -ENOMEM;
	text[got] = '\0';
	*ret_text = text;
	*ret_len = got;
	return 0;
}

int nd_auth_check(const struct nd_auth_server *s, const char *token, int64_t now,
		  char *user, size_t user_size, char *why, size_t why_size)
{
	char password[ND_AUTH_FIELD_MAX], name[ND_AUTH_FIELD_MAX], *text = NULL;
	char shown[ND_AUTH_FIELD_MAX];
	int64_t ts = 0, skew;
	size_t len = 0;
	bool ok;

	user[0] = '\0';
	if (!token || !*token) {
		snprintf(why, why_size, "authentication required, the client sent no credentials");
		return -EACCES;
	}
	if (nd_auth_token_read(s->private_key, s->pkcs1, token, name, sizeof(name), password,
			       sizeof(password), &ts) < 0) {
		snprintf(why, why_size, "authentication failed: the credentials do not decrypt "
			 "with the server's key (another public key, or %s padding)",
			 s->pkcs1 ? "OAEP" : "PKCS#1 v1.5");
		return -EACCES;
	}
	/* A user name from the network reaches our log: no terminal controls
	 * in what is shown (the match uses the name as sent). */
	nd_strlcpy(shown, name, sizeof(shown));
	nd_sanitize_buf(shown, sizeof(shown), 0);
	nd_strlcpy(user, shown, user_size);
	skew = ts - now;
	if (skew > s->skew_threshold_sec || skew < -(int64_t)s->skew_threshold_sec) {
		OPENSSL_cleanse(password, sizeof(password));
		snprintf(why, why_size, "authentication of '%s' failed: its clock is %" PRId64
			 " s %s the server's (more than --time-skew-threshold %d)", shown,
			 skew < 0 ? -skew : skew, skew < 0 ? "behind" : "ahead of",
			 s->skew_threshold_sec);
		return -EACCES;
	}
	if (nd_auth_users_read(s->users_path, &text, &len, why, why_size) < 0) {
		OPENSSL_cleanse(password, sizeof(password));
		return -EACCES;
	}
	ok = nd_auth_users_match(text, len, name, password);
	OPENSSL_cleanse(password, sizeof(password));
	free(text);
	if (!ok) {
		snprintf(why, why_size, "authentication of '%s' failed: no such user with this "
			 "password in '%s'", shown, s->users_path);
		return -EACCES;
	}
	return 0;
}
