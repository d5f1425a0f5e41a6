/*
 * version.h: the program's version, as -V prints it.  It is not the
 * control protocol's version, which changes only when the wire does.
 */
#ifndef GB_VERSION_H
#define GB_VERSION_H

#define GB_VERSION	"0.1.0"

#endif /* GB_VERSION_H */
