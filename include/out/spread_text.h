/*
 * spread_text.h: one end's spread (struct gb_spread, and the shares of
 * its interface's lines, base/result.h) as the report's -v line.
 * Formats only.
 */
#ifndef GB_SPREAD_TEXT_H
#define GB_SPREAD_TEXT_H

#include <stdio.h>

#include "base/result.h"

/*
 * Under prefix ("gigebench-r:"), one line:
 *
 *   gigebench-r: spread cpu0 42% (sirq 30%, NET_RX 12034) cpu1 97%
 *       (sirq 71%, NET_RX 80211); queues rx 2 tx 2; lines eth0-TxRx-0
 *       8% cpu0, eth0-TxRx-1 92% cpu1
 *
 * Nothing when the side has no spread (a peer that predates it).
 */
void	spread_text(FILE *, const struct gb_side *, const char *prefix);

#endif /* GB_SPREAD_TEXT_H */
