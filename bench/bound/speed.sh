#!/bin/bash
# Time bound on ~4M references over 65536 pages (a 256 MiB file in 4 KiB
# pages): a real fio Zipf log (null engine, nothing is read), or a raw
# stream from brute's generator when fio is missing.
# Usage: speed.sh [BOUND] [BRUTE]   (make speed)
set -eu
cd "$(dirname "$0")"
BOUND=${1:-./bound}
BRUTE=${2:-./brute}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
THETA=${THETA:-1.2}
CAPS=${CAPS:-26214,13107,6554}		# 2.5:1, 5:1, 10:1 data:cache

timeit() {
	local start end
	start=$(date +%s.%N)
	"$@"
	end=$(date +%s.%N)
	echo "elapsed: $(echo "$end - $start" | bc) s" >&2
}

if command -v fio >/dev/null; then
	# 61 loops x 65536 = 3997696 reads (fio stops each loop after size)
	timeit fio --name=speed --filename="$tmp/data" --size=256M \
		--rw=randread --bs=4k --ioengine=null \
		--random_distribution=zipf:$THETA --loops=61 --number_ios=65536 \
		--write_iolog="$tmp/log" >/dev/null
	in=("$tmp/log")
else
	"$BRUTE" gen 1 3997696 65536 "$THETA" > "$tmp/log"
	in=(-r "$tmp/log")
fi
echo "input: $(du -h "$tmp/log" | cut -f1), $(wc -l < "$tmp/log") lines, zipf:$THETA" >&2
echo "== one capacity (26214), 1M warm-up references" >&2
timeit "$BOUND" -s 1000000 -c 26214 "${in[@]}"
echo "== capacities $CAPS, 1M warm-up references, --lru" >&2
if [ -x /usr/bin/time ]; then
	timeit /usr/bin/time -f "max RSS %M KiB" "$BOUND" -l -s 1000000 -c "$CAPS" "${in[@]}"
else
	timeit "$BOUND" -l -s 1000000 -c "$CAPS" "${in[@]}"
fi
