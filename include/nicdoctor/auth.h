/*
 * auth.h - iperf3's authentication, wire-compatible with 3.21
 * (src/iperf_auth.c): the client encrypts "user: U\npwd:  P\nts:   T" with
 * the server's RSA public key (OAEP, or PKCS#1 v1.5 with
 * --use-pkcs1-padding), base64-encodes it and sends it as the parameter
 * "authtoken"; the server decrypts it, checks that T is within its skew
 * threshold of its own clock and that sha256("{U}P") in hex is U's hash in
 * the authorized users file (lines "user,hash", '#' comments).
 */
#ifndef NICDOCTOR_AUTH_H
#define NICDOCTOR_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ND_AUTH_SKEW_DEFAULT_SEC 10	/* iperf3's --time-skew-threshold */
#define ND_AUTH_FIELD_MAX 256		/* a user name or password, with its NUL */
#define ND_AUTH_TOKEN_MAX 4096		/* base64 of a 16384-bit RSA block fits */
#define ND_AUTH_USERS_MAX (1 << 20)	/* an authorized users file */

/* The crypto library in use, "OpenSSL 3.0.19 27 Jan 2026": for
 * `nicdoctor --version` to list beside the others. */
const char *nd_auth_library_version(void);

/* An RSA key read from a PEM file (an OpenSSL EVP_PKEY inside). */
struct nd_auth_key;

/* Read a PEM public (SubjectPublicKeyInfo) or private key; only RSA.  0,
 * or a negative errno with a one-line reason in err. */
int nd_auth_key_load(const char *path, bool private_key, struct nd_auth_key **ret_key,
		     char *err, size_t err_size);
void nd_auth_key_free(struct nd_auth_key *key);

/* What `bench` (and `diagnose --peer`) sends. */
struct nd_auth_client {
	const char *username;
	char password[ND_AUTH_FIELD_MAX];
	struct nd_auth_key *public_key;
	bool pkcs1;			/* PKCS#1 v1.5 instead of OAEP */
};

/* What `serve` checks; users_path is read again for every test, as iperf3. */
struct nd_auth_server {
	struct nd_auth_key *private_key;
	const char *users_path;
	int skew_threshold_sec;
	bool pkcs1;
};

/* The password from IPERF3_PASSWORD, else asked on the terminal without
 * echo, as iperf3.  0, or a negative errno with the reason in err. */
int nd_auth_read_password(struct nd_auth_client *c, char *err, size_t err_size);

/*
 * The client's options (--username, --rsa-public-key-path, c->pkcs1 from
 * --use-pkcs1-padding): both or neither (then 0 and no key); reads the
 * key and the password.  -EINVAL for a usage error, else a negative errno;
 * the reason in err.
 */
int nd_auth_client_setup(struct nd_auth_client *c, const char *username,
			 const char *public_key_path, char *err, size_t err_size);
/* Forget the password and free the key. */
void nd_auth_client_clear(struct nd_auth_client *c);

/* The authtoken for time ts (seconds since the epoch); *ret_token is
 * malloc'd.  -EINVAL when user or password cannot travel in the format
 * (empty, white space, too long), -EIO when encryption fails. */
int nd_auth_token_make(const struct nd_auth_client *c, int64_t ts, char **ret_token,
		       char *err, size_t err_size);

/* Decrypt and split a token: -EBADMSG when it is not base64, does not
 * decrypt with this key and padding, or is not the credential text. */
int nd_auth_token_read(const struct nd_auth_key *private_key, bool pkcs1, const char *token,
		       char *user, size_t user_size, char *password, size_t password_size,
		       int64_t *ret_ts);

/* sha256("{user}password") as 64 lower-case hex digits and a NUL. */
int nd_auth_hash(const char *user, const char *password, char hex[65]);

/* Does the users file text give user this password's hash?  Parsed as
 * iperf3 does: per line up to '\r' or '\n', blank, comma-less and
 * '#' lines skipped, then the first two comma-separated fields. */
bool nd_auth_users_match(const char *text, size_t len, const char *user, const char *password);

/* Read the users file (a regular file, at most ND_AUTH_USERS_MAX bytes);
 * *ret_text is malloc'd and NUL-terminated. */
int nd_auth_users_read(const char *path, char **ret_text, size_t *ret_len, char *err,
		       size_t err_size);

/*
 * The server's whole check of a token at time now: 0 with the user name,
 * or -EACCES with a one-line reason (why never holds the password).
 */
int nd_auth_check(const struct nd_auth_server *s, const char *token, int64_t now,
		  char *user, size_t user_size, char *why, size_t why_size);

#endif
