# bash completion for lantern(8)                           -*- shell-script -*-
#
# Installed as $(PREFIX)/share/bash-completion/completions/lantern. It uses
# bash-completion's _filedir and _command_offset when they are loaded and
# plain compgen otherwise, so that it also works when sourced on its own.
#
# Probe names hold ':' and -e trace=SET '=', which readline splits words
# at: the words are joined back here, the candidates are made for the whole
# word, and what readline does not replace (the text before its word, $2)
# is cut off them.

_lantern_probe_types='BEGIN END tracepoint: rawtracepoint: uprobe: uretprobe: usdt:
	profile: interval: software: hardware: kprobe: kretprobe: kfunc: kretfunc:'

# The words of the command line, those split at ':' or '=' joined again:
# words, cword and cur (the word under the cursor, without its opening
# quote), and wstart[i], the index in COMP_WORDS where words[i] starts (for
# _command_offset).
_lantern_words()
{
	local i w glue=
	[[ $COMP_WORDBREAKS == *:* ]] && glue+=':'
	[[ $COMP_WORDBREAKS == *=* ]] && glue+='='
	words=() wstart=() cword=0
	for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $glue && ${#words[@]} -gt 1 ]] &&
			[[ $w == ["$glue"]* || ${COMP_WORDS[i - 1]} == *["$glue"] ]]; then
			words[${#words[@]} - 1]+=$w
		else
			words+=("$w")
			wstart+=("$i")
		fi
		((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
	done
	cur=${words[cword]-}
	cur=${cur#[\'\"]}
}

# COMPREPLY from candidates for the whole word cur, cut to readline's word
_lantern_reply()
{
	local cut=$((${#cur} - ${#base})) c
	((cut < 0)) && cut=0
	COMPREPLY=()
	for c in "$@"; do
		[[ $c == "$cur"* ]] && COMPREPLY+=("${c:cut}")
	done
}

_lantern_files()
{
	if declare -F _filedir >/dev/null; then
		local cur=$base
		_filedir
	else
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$base")
	fi
}

_lantern_pids()
{
	# a list: -p 12,34 in lantern trace
	local pre=
	[[ $base == *,* ]] && pre=${base%,*},
	mapfile -t COMPREPLY < <(cd /proc && compgen -P "$pre" -W "$(printf '%s\n' [0-9]*)" \
		-- "${base##*,}")
}

# A value from a fixed list, or a comma-separated list of them (multi set)
_lantern_values()
{
	local list=$1 multi=${2-} pre=
	[[ $multi && $base == *,* ]] && pre=${base%,*},
	mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$list" -- "${base##*,}")
}

# Probes (-e, -l): the types, then tracepoint categories and events from
# tracefs when it can be read, and files after uprobe:, uretprobe:, usdt:.
_lantern_probes()
{
	local events=/sys/kernel/tracing/events type rest d f cands=()
	[[ -d $events ]] || events=/sys/kernel/debug/tracing/events
	type=${cur%%:*}
	rest=${cur#*:}
	case $cur in
	tracepoint:*:* | t:*:*)
		for d in "$events/${rest%%:*}"/*/; do
			[[ -d $d ]] && f=${d%/} && cands+=("$type:${rest%%:*}:${f##*/}")
		done
		;;
	tracepoint:* | t:*)
		for d in "$events"/*/; do
			[[ -d $d ]] && f=${d%/} && cands+=("$type:${f##*/}:")
		done
		;;
	uprobe:*:* | uretprobe:*:* | usdt:*:* | u:*:* | ur:*:* | U:*:*) ;;
	uprobe:* | uretprobe:* | usdt:* | u:* | ur:* | U:*)
		while IFS= read -r f; do
			[[ -d $f ]] && cands+=("$type:$f/") || cands+=("$type:$f:")
		done < <(compgen -f -- "$rest")
		;;
	*)
		read -r -d '' -a cands <<<"$_lantern_probe_types"
		;;
	esac
	_lantern_reply "${cands[@]}"
	for f in "${COMPREPLY[@]}"; do
		[[ $f == *[:/] ]] && compopt -o nospace 2>/dev/null && break
	done
	return 0
}

# The command of lantern trace, from words[$1] on
_lantern_command_at()
{
	if declare -F _command_offset >/dev/null; then
		_command_offset "${wstart[$1]}"
	elif (($1 == cword)); then
		mapfile -t COMPREPLY < <(compgen -c -- "$base")
	else
		_lantern_files
	fi
}

_lantern_trace()
{
	local i w c opt=
	local opts='-f -ff -p -a -e -Z -z -t -tt -ttt -r -T -s -x -xx -y -yy -k -o -c -C -S
		-q -qq -qqq --json --timeline --calls -d -h --help'

	# the options end at the first word that is not one, or at --; -p, -e,
	# -o, -s, -S and -d at the end of a group take the next word
	for ((i = 2; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--)
			((i++))
			break
			;;
		--timeline | --calls) ((i++)) ;;
		--*) ;;
		-?*)
			c=${w#-}
			c=${c%%[peosSd]*}
			((${#c} == ${#w} - 2)) && ((i++))
			;;
		*) break ;;
		esac
	done
	if ((i < cword)); then
		_lantern_command_at "$i"
		return
	fi

	case $prev in
	--timeline | --calls) opt=$prev ;;
	--*) ;;
	-?*)
		c=${prev#-}
		c=${c%%[peosSd]*}
		((${#c} == ${#prev} - 2)) && opt=-${prev: -1}
		;;
	esac
	case $opt in
	-p) _lantern_pids ;;
	-o | --timeline) _lantern_files ;;
	-S) _lantern_values 'time calls errors name avg-time nothing' ;;
	-d) _lantern_values 'ir bpf all' multi ;;
	-e)
		case $cur in
		status=*)
			_lantern_reply status=failed status=successful status=all
			;;
		trace=* | t=*)
			local pre=${cur%%=*}= set=${cur#*=}
			[[ $set == *,* ]] && pre+=${set%,*},
			local cands=() k
			for k in all none %file %process %network %net %signal %ipc %desc %memory \
				%creds %clock %stat %lstat %fstat %statfs %pure; do
				cands+=("$pre$k")
			done
			_lantern_reply "${cands[@]}"
			;;
		*)
			_lantern_reply trace= status=
			compopt -o nospace 2>/dev/null
			;;
		esac
		;;
	-s | --calls) ;;
	*)
		if [[ $cur == -* ]]; then
			_lantern_values "$opts"
		elif ((i == cword)); then
			_lantern_command_at "$cword"
		fi
		;;
	esac
}

_lantern()
{
	local cur prev words cword wstart base=${2-}
	_lantern_words
	[[ $# -ge 2 ]] || base=$cur
	prev=${words[cword - 1]-}

	if ((cword > 1)) && [[ ${words[1]} == trace ]]; then
		_lantern_trace
		return
	fi

	case $prev in
	-e)
		_lantern_probes
		return
		;;
	-o | --output | --flamegraph | --pprof | -I | --include | --debuginfo | --fmt | --traceable-functions)
		_lantern_files
		return
		;;
	--dialect)
		_lantern_values '0.17 0.26 auto'
		return
		;;
	--mode)
		_lantern_values 'test bench format codegen compiler-bench'
		return
		;;
	--no-feature)
		_lantern_values 'uprobe_multi kprobe_multi kprobe_session'
		return
		;;
	-B)
		_lantern_values 'line full none'
		return
		;;
	-f)
		_lantern_values 'text json folded prometheus pprof'
		return
		;;
	-d | --debug)
		_lantern_values 'ast types ir bpf all' multi
		return
		;;
	-c | --cmd)
		mapfile -t COMPREPLY < <(compgen -c -- "$base")
		return
		;;
	-p | --pid)
		_lantern_pids
		return
		;;
	--metrics | --probe-filter)
		# ADDR:PORT
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		_lantern_values '-e -o -f -B -q -v -k -kk -c -p -d -l -lv -I --include --debuginfo --dry-run
			--unsafe --no-warnings --info --flamegraph --pprof --metrics --dialect --test --bench
			--mode --fmt --probe-filter --traceable-functions --no-feature --usdt-file-activation
			--output --list --pid --cmd --quiet --verbose --warnings --debug -h --help -V --version'
		return
	fi

	# a probe pattern after -l; else the script file, then its parameters
	local i list=
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-e | -o | -f | -B | -d | -c | -p | -I | --include | --debuginfo | --flamegraph | --pprof | --metrics | \
			--dialect | --mode | --fmt | --probe-filter | --traceable-functions | --no-feature | \
			--output | --pid | --cmd | --debug) ((i++)) ;;
		--*) ;;
		-*l*) [[ ${words[i]} =~ ^-[qvhVl]+$ ]] && list=1 ;;
		esac
	done
	if [[ $list ]]; then
		_lantern_probes
		return
	fi
	_lantern_files
	if ((cword == 1)) && [[ trace == "$base"* ]]; then
		COMPREPLY+=(trace)
	fi
}

complete -F _lantern lantern
