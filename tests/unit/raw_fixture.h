/*
 * raw_fixture.h - read a real capture from tests/fixtures/raw/ for the
 * parser tests, without its first-line provenance comment.  The caller
 * frees the text.  Include after <cmocka.h>.
 */
#ifndef NICDOCTOR_TEST_RAW_FIXTURE_H
#define NICDOCTOR_TEST_RAW_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *raw(const char *name)
{
	char path[256], *text, *body;
	long size;
	FILE *f;

	snprintf(path, sizeof(path), "tests/fixtures/raw/%s", name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	body = strdup(strchr(text, '\n') + 1);
	free(text);
	return body;
}

#endif
