# gigebench(1) bash completion.  Installed by "make install" and the Debian
# package into bash-completion's completions directory; to try it by hand:
#	. contrib/completion/gigebench.bash
#
# The option list is gigebench's own (its --help and getopt table):
# tests/completion.sh fails when one is missing here, or when one here is
# not gigebench's, and when an option that takes a value is not in the
# value cases below.  Values: -C offers the running kernel's congestion
# controls, -I and --bind-dev its interfaces, --sweep the sweep parameters
# (PARAM=), -f the units, --tos the DSCP names (it also takes a number),
# --csv, --plot and --psk files, --timestamps= its default format; the
# other values are numbers or addresses, and nothing is offered for them.
# The last word is a host.  After --ttcp, and for the name ttcp (the
# package's alternative), the classic tool's letters.
# After merge (the first word), merge's options, --figure's names and
# *.json files.

_gigebench_opts="-1 -4 -6 -A -B -b -C -D -f -h -I -i -J -l -M -n -P -p -q -R -r
-S -s -T -t -u -V -v -w -Z --affinity --allow-mtu --allow-profile
--allow-reverse --batch --bidir --bind --bind-dev --buffer --capture
--confidence --congestion --count --cport --crr --csv --flow-csv --force-bufs
--format
--fq-rate --gro --gso --handshake-timeout --help --interface --interval --ipv4
--ipv6 --json --json-stream --length --link-rate --max-bytes --max-duration
--max-flows --max-length --max-pending --max-pending-source --max-rate
--max-sockbuf --max-streams --mss --mtu --no-progress --nodelay --omit --once --parallel
--phases --plot --port --probe-crr --probe-rate --probe-tos --probes --profile --psk --quiet --rate --rcvbuf --receive --repeat
--request-size --response-size --restore --rr --rr-burst --rr-timeout
--sendfile --server --silent-timeout --sink --skip-rx-copy --sndbuf --splice
--sweep --threads --time --timestamps --title --tos --transmit --ttcp --udp
--under-load --verbose --version --window --zerocopy"

# -f: bits (k m g) or bytes (K M G) a second, in both modes.
_gigebench_units="k m g K M G"

# --tos: the DSCP names of src/dscp.c.
_gigebench_dscp="CS0 CS1 CS2 CS3 CS4 CS5 CS6 CS7 AF11 AF12 AF13 AF21 AF22
AF23 AF31 AF32 AF33 AF41 AF42 AF43 EF VA LE"

_gigebench_sweep="mtu mss window sndbuf rcvbuf length streams cc rate
request-size response-size burst"

# --ttcp, or started as ttcp: the classic tool's letters (ttcp_opts.c).
_gigebench_ttcp_opts="-t -r -d -s -u -v -B -D -T -A -b -f -l -n -O -p
--json --silent-timeout --max-duration --help"

_gigebench_ttcp()
{
	case $prev in
	-f)
		COMPREPLY=($(compgen -W "$_gigebench_units" -- "$cur"))
		return ;;
	-A | -b | -l | -n | -O | -p | --silent-timeout | --max-duration)
		return ;;
	esac
	_gigebench_word "$_gigebench_ttcp_opts"
}

# gigebench merge: its own options (merge_opts.c), the figures of
# --figure, and the --json results (*.json) it reads.
_gigebench_merge_opts="-f -h --by --csv --figure --format --help --outlier
--plot"
_gigebench_merge_figures="cpu-tx cpu-rx proc-tx proc-rx irq-tx irq-rx retrans
rtt"

_gigebench_merge()
{
	case $prev in
	-f | --format)
		COMPREPLY=($(compgen -W "$_gigebench_units" -- "$cur"))
		return ;;
	--by)
		COMPREPLY=($(compgen -W "hostname address" -- "$cur"))
		return ;;
	--figure)
		COMPREPLY=($(compgen -W "$_gigebench_merge_figures" -- "$cur"))
		return ;;
	--csv)
		_filedir
		return ;;
	--plot)
		_filedir '@(svg|png)'
		return ;;
	--outlier)
		return ;;
	esac
	$split && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_gigebench_merge_opts" -- "$cur"))
	else
		_filedir json
	fi
}

# _gigebench_word OPTIONS: a word that is no option's value: one of
# OPTIONS, or a host.
_gigebench_word()
{
	$split && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$1" -- "$cur"))
	else
		_known_hosts_real -- "$cur"
	fi
}

_gigebench()
{
	local cur prev words cword split i
	_init_completion -s || return

	if [[ ${words[0]##*/} == ttcp ]]; then
		_gigebench_ttcp
		return
	fi
	if ((cword > 1)) && [[ ${words[1]} == merge ]]; then
		_gigebench_merge
		return
	fi
	for ((i = 1; i < cword; i++)); do
		[[ ${words[i]} == -- ]] && break
		if [[ ${words[i]} == --ttcp ]]; then
			_gigebench_ttcp
			return
		fi
	done

	case $prev in
	-C | --congestion)
		COMPREPLY=($(compgen -W "$(cat \
		    /proc/sys/net/ipv4/tcp_available_congestion_control \
		    2>/dev/null)" -- "$cur"))
		return ;;
	-I | --interface | --bind-dev)
		COMPREPLY=($(compgen -W "$(ls /sys/class/net 2>/dev/null)" \
		    -- "$cur"))
		return ;;
	-f | --format)
		COMPREPLY=($(compgen -W "$_gigebench_units" -- "$cur"))
		return ;;
	--tos | --probe-tos)
		COMPREPLY=($(compgen -W "$_gigebench_dscp" -- "$cur"))
		return ;;
	--phases)
		# one at a time; the list is comma-separated
		COMPREPLY=($(compgen -W "upload download both" -- "$cur"))
		return ;;
	--sweep)
		COMPREPLY=($(compgen -S = -W "$_gigebench_sweep" -- "$cur"))
		compopt -o nospace
		return ;;
	--csv | --flow-csv | --plot | --psk)
		_filedir
		return ;;
	--timestamps)
		# only as --timestamps=FORMAT (an optional value)
		$split && COMPREPLY=($(compgen -W "'%Y-%m-%d %H:%M:%S'" \
		    -- "$cur"))
		$split && return ;;
	-A | --affinity | -B | --bind | -b | --buffer | -i | --interval | \
	-l | --length | -M | --mss | -n | --count | -P | --parallel | \
	-p | --port | -R | --rate | -T | --time | -w | --window | --batch | \
	--confidence | --cport | --fq-rate | --handshake-timeout | \
	--link-rate | --max-bytes | --max-duration | --max-length | \
	--max-pending | --max-pending-source | --max-rate | --max-sockbuf | \
	--max-flows | --max-streams | --mtu | --omit | --rcvbuf | --repeat | \
	--request-size | --response-size | --rr-burst | --rr-timeout | \
	--silent-timeout | --sndbuf | --threads | --title | --probes | --probe-rate)
		return ;;
	esac
	if ((cword == 1)) && [[ $cur != -* ]] && ! $split; then
		COMPREPLY=($(compgen -W merge -- "$cur"))
		_known_hosts_real -a -- "$cur"
		return
	fi
	_gigebench_word "$_gigebench_opts"
} &&
complete -F _gigebench gigebench ttcp
