/*
 * assert_near.h: the unit tests' check of a double, which cmocka 1.1.5
 * lacks (its assert_float_equal is single precision): got within eps of
 * want, else the test fails naming the expression and both values.
 * Include after <cmocka.h>.
 */
#ifndef GB_TEST_ASSERT_NEAR_H
#define GB_TEST_ASSERT_NEAR_H

#include <math.h>

#define assert_near(got, want, eps) do {				\
	double	g_ = (got), w_ = (want);				\
	if (!(fabs(g_ - w_) <= (eps)))					\
		fail_msg("%s = %.12g, want %.12g (+/- %g)", #got, g_,	\
		    w_, (double)(eps));					\
} while (0)

#endif /* GB_TEST_ASSERT_NEAR_H */
