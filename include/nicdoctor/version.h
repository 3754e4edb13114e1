/*
 * version.h - what `nicdoctor --version` prints: nicdoctor's own version
 * (ND_VERSION, common.h: the one definition the reports, the man page and
 * debian/changelog follow) and the libraries it was built with.
 */
#ifndef NICDOCTOR_VERSION_H
#define NICDOCTOR_VERSION_H

#include <stdio.h>

/* One line per library: the version compiled against and, where the
 * library can say so, the one loaded now.  0 or -EIO. */
int nd_version_print(FILE *out);

#endif
