#!/bin/bash
# Install the Debian packages the harness needs, if any are missing.
# Runs apt-get as root; otherwise prints the command to run and fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# "test|package": a test is a command name or an absolute file path.
NEEDS=(
	"gcc|gcc" "make|make" "git|git" "xz|xz-utils" "perl|perl"
	"flex|flex" "bison|bison" "bc|bc" "cpio|cpio" "python3|python3"
	"/usr/include/libelf.h|libelf-dev" "/usr/include/openssl/ssl.h|libssl-dev"
	"ccache|ccache" "sparse|sparse" "/usr/lib/python3/dist-packages/ply|python3-ply"
	"/usr/lib/python3/dist-packages/git|python3-git" "/usr/lib/python3/dist-packages/matplotlib|python3-matplotlib"
	"qemu-system-x86_64|qemu-system-x86" "qemu-system-aarch64|qemu-system-arm"
	"aarch64-linux-gnu-gcc|gcc-aarch64-linux-gnu" "spatch|coccinelle"
	# the static C library for the arm64 demo's init (scripts/guest/arm64-demo.c)
	"/usr/aarch64-linux-gnu/lib/libc.a|libc6-dev-arm64-cross"
	"busybox|busybox-static" "ip|iproute2"
	"/usr/include/numa.h|libnuma-dev" "/usr/include/sys/capability.h|libcap-dev"
	"/usr/include/liburing.h|liburing-dev"
	"mkfs.ext4|e2fsprogs" "mkswap|util-linux"
	"fio|fio" "stress-ng|stress-ng"
	"sqlite3|sqlite3" "/usr/lib/postgresql|postgresql"
	"curl|curl" "dpkg-deb|dpkg" "shellcheck|shellcheck"
	# make send: git send-email with the Perl modules it recommends (Debian's
	# git ships no fallback for Mail::Address, so without libmailtools-perl
	# even a dry run fails), SMTP with TLS and authentication, and b4
	"/usr/lib/git-core/git-send-email|git-email" "b4|b4"
	"/usr/share/perl5/Mail/Address.pm|libmailtools-perl"
	"/usr/share/perl5/Email/Valid.pm|libemail-valid-perl"
	"/usr/share/perl5/Net/SMTP/SSL.pm|libnet-smtp-ssl-perl"
	"/usr/share/perl5/Authen/SASL.pm|libauthen-sasl-perl"
	"/usr/share/perl5/IO/Socket/SSL.pm|libio-socket-ssl-perl"
)

have() {
	case $1 in
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

missing=()
for need in "${NEEDS[@]}"; do
	have "${need%%|*}" || missing+=("${need#*|}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	die "missing packages: ${missing[*]}; run as root: apt-get install ${missing[*]}"
fi
log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	die "apt-get install ${missing[*]} failed"
