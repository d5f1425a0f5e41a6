/*
 * diag_irq.c: the findings on interrupts (base/diag.h): no coalescing (an
 * interrupt per packet or more), an IRQ line shared with another device,
 * a legacy (wired, not MSI) line.  Part of the diagnosis (diag.c runs
 * it); pure like the rest.  Which actions of a line are the interface is
 * base/irqaction.h's rule, the same the host used to pick the lines.
 *
 * The lines may be the peer's, as they came over the network: strings are
 * read within their arrays, never as if they ended in NUL.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/irqaction.h"
#include "diag_internal.h"

/* One interrupt per packet or more: nothing is coalesced (SUNGEM). */
#define DIAG_IRQ_PER_PACKET	1.0

/* Interrupt controllers of wired (INTx) lines: not MSI. */
static const char *const diag_legacy_chips[] = {
	"IO-APIC",	/* also "IR-IO-APIC" */
	"XT-PIC",
	"OpenPIC",
};
#define NLEGACY_CHIPS	\
	(sizeof(diag_legacy_chips) / sizeof(diag_legacy_chips[0]))

typedef int	(*diag_line_pred)(const struct gb_irq_line *);

static const char *diag_rawname(char *, size_t, const struct gb_side *);
static const char *diag_ifname(char *, size_t, const struct gb_side *);
static void	 diag_squeeze(char *, size_t, const char *, size_t);
static void	 diag_others(char *, size_t, const struct gb_irq_line *,
		    const char *);
static int	 diag_line_shared(const struct gb_irq_line *);
static int	 diag_line_legacy(const struct gb_irq_line *);
static int	 diag_line_find(const struct gb_side *, diag_line_pred,
		    unsigned *);
static void	 diag_line_parts(char *, size_t, char *, size_t,
		    const struct gb_irq_line *, unsigned);

/* The interface's name, "" when unknown. */
static const char *
diag_rawname(char *buf, size_t len, const struct gb_side *s)
{
	snprintf(buf, len, "%.*s",
	    (int)strnlen(s->iface.name, sizeof(s->iface.name)), s->iface.name);
	return buf;
}

/* The interface's name for a sentence. */
static const char *
diag_ifname(char *buf, size_t len, const struct gb_side *s)
{
	if (diag_rawname(buf, len, s)[0] == '\0')
		snprintf(buf, len, "the interface");
	return buf;
}

/* Copy src (at most srclen bytes), runs of blanks made one, ends trimmed. */
static void
diag_squeeze(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t	i, n = 0;
	int	blank = 0;

	if (len == 0)
		return;
	for (i = 0; i < srclen && src[i] != '\0' && n + 1 < len; i++) {
		if (src[i] == ' ' || src[i] == '\t') {
			blank = n > 0;
			continue;
		}
		if (blank && n + 2 < len)
			dst[n++] = ' ';
		blank = 0;
		dst[n++] = src[i];
	}
	dst[n] = '\0';
}

/* The line's actions other than the interface: "uhci_hcd:usb3". */
static void
diag_others(char *dst, size_t len, const struct gb_irq_line *l,
    const char *ifname)
{
	char		 acts[sizeof(l->actions)];
	const char	*p = acts, *tok;
	size_t		 n;

	diag_squeeze(acts, sizeof(acts), l->actions, sizeof(l->actions));
	dst[0] = '\0';
	while ((tok = irqaction_next(&p, &n)) != NULL) {
		if (irqaction_is_iface(tok, n, ifname))
			continue;
		snprintf(dst + strlen(dst), len - strlen(dst), "%s%.*s",
		    dst[0] != '\0' ? ", " : "", (int)n, tok);
	}
	if (dst[0] == '\0')
		snprintf(dst, len, "another device");
}

static int
diag_line_shared(const struct gb_irq_line *l)
{
	return l->shared != 0;
}

static int
diag_line_legacy(const struct gb_irq_line *l)
{
	char	chip[sizeof(l->chip) + 1];
	size_t	i;

	memcpy(chip, l->chip, sizeof(l->chip));
	chip[sizeof(l->chip)] = '\0';
	for (i = 0; i < NLEGACY_CHIPS; i++)
		if (strstr(chip, diag_legacy_chips[i]) != NULL)
			return 1;
	return 0;
}

/*
 * The first of the side's IRQ lines that pred holds for, or -1; *more
 * gets how many others it holds for.
 */
static int
diag_line_find(const struct gb_side *s, diag_line_pred pred, unsigned *more)
{
	unsigned	i, n = s->iface.nlines;
	int		first = -1;

	*more = 0;
	if (!s->has)
		return -1;
	if (n > GB_MAX_IRQ_LINES)
		n = GB_MAX_IRQ_LINES;
	for (i = 0; i < n; i++) {
		if (!pred(&s->iface.lines[i]))
			continue;
		if (first == -1)
			first = (int)i;
		else
			(*more)++;
	}
	return first;
}

/* " (IO-APIC-fasteoi)" and " (+2 more)" as parts of a line's finding. */
static void
diag_line_parts(char *chip, size_t chiplen, char *more, size_t morelen,
    const struct gb_irq_line *l, unsigned nmore)
{
	char	squeezed[sizeof(l->chip)];

	diag_squeeze(squeezed, sizeof(squeezed), l->chip, sizeof(l->chip));
	snprintf(chip, chiplen, "%s%s%s", squeezed[0] != '\0' ? " (" : "",
	    squeezed, squeezed[0] != '\0' ? ")" : "");
	if (nmore > 0)
		snprintf(more, morelen, " (+%u more)", nmore);
	else
		more[0] = '\0';
}

/*
 * Interrupts per data packet (hoststat.c): the sender's over its tx
 * packets, the receiver's over its rx packets.
 */
void
diag_coalescing(struct gb_result *r, const struct gb_side *s,
    const char *side, int data_tx)
{
	const struct gb_iface_figures	*f = &s->iface;
	uint64_t			 pkts;
	char				 name[GB_IFNAME_LEN + 16];
	char				 counts[DIAG_TOKLEN] = "";
	char				 handler[GB_PROFILE_NAME_LEN + 96] = "";

	if (!s->has || !f->has_irq_per_packet ||
	    !(f->irq_per_packet >= DIAG_IRQ_PER_PACKET))
		return;
	pkts = data_tx ? f->tx_packets : f->rx_packets;
	if (f->has_interrupts && f->has_counters && pkts > 0)
		snprintf(counts, sizeof(counts), " (%" PRIu64 " for %" PRIu64
		    " packets)", f->interrupts, pkts);
	diag_profile_handler(s, handler, sizeof(handler));
	diag_add(r, "no_coalescing", side, "%s takes %.2f interrupts per "
	    "packet%s: no interrupt coalescing (ethtool -C)%s",
	    diag_ifname(name, sizeof(name), s), f->irq_per_packet, counts,
	    handler);
}

void
diag_irq_shared(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_irq_line	*l;
	unsigned			 nmore;
	int				 i;
	char				 name[GB_IFNAME_LEN + 16];
	char				 raw[GB_IFNAME_LEN + 1];
	char				 chip[sizeof(l->chip) + 4];
	char				 more[DIAG_TOKLEN];
	char				 others[sizeof(l->actions)];

	if ((i = diag_line_find(s, diag_line_shared, &nmore)) == -1)
		return;
	l = &s->iface.lines[i];
	diag_line_parts(chip, sizeof(chip), more, sizeof(more), l, nmore);
	diag_others(others, sizeof(others), l,
	    diag_rawname(raw, sizeof(raw), s));
	diag_add(r, "shared_irq", side, "%s shares IRQ %.*s%s with %s%s",
	    diag_ifname(name, sizeof(name), s),
	    (int)strnlen(l->name, sizeof(l->name)), l->name, chip, others,
	    more);
}

void
diag_irq_legacy(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_irq_line	*l;
	unsigned			 nmore;
	int				 i;
	char				 name[GB_IFNAME_LEN + 16];
	char				 chip[sizeof(l->chip) + 4];
	char				 more[DIAG_TOKLEN];

	if ((i = diag_line_find(s, diag_line_legacy, &nmore)) == -1)
		return;
	l = &s->iface.lines[i];
	diag_line_parts(chip, sizeof(chip), more, sizeof(more), l, nmore);
	diag_add(r, "legacy_irq", side, "%s on legacy IRQ %.*s%s, not MSI%s",
	    diag_ifname(name, sizeof(name), s),
	    (int)strnlen(l->name, sizeof(l->name)), l->name, chip, more);
}
