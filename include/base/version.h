/*
 * version.h: the program's version, as -V prints it, and the revision of
 * the tree it was built from.  It is not the control protocol's version,
 * which changes only when the wire does.
 */
#ifndef GB_VERSION_H
#define GB_VERSION_H

#define GB_VERSION	"0.1.0"

/*
 * "git describe --always --dirty" of the tree this binary was built from
 * ("7ca7f91", "7ca7f91-dirty"), or "" when it was not built from a git
 * tree (a tarball, a Debian source package).
 */
const char	*version_revision(void);

#endif /* GB_VERSION_H */
