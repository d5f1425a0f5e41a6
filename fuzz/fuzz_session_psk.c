/*
 * fuzz_session_psk.c: fuzz_session.c's keyed mode, the listener with
 * --psk (see the top of fuzz_session.c): handshakes that prove the key or
 * fail to, sealed messages, and the refusal of a source that failed too
 * often.
 */
#define FUZZ_SESSION_PSK	1
#include "fuzz_session.c"
