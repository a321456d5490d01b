#!/usr/bin/env bash
# one_node_cluster.sh start DIR | stop DIR
#
# Starts (or stops) a private one-node Slurm cluster on localhost from
# Debian's packages (slurmctld slurmd slurm-client munge), for tests of the
# cluster path. Everything lives under DIR (a fresh directory owned by the
# caller): munge key/socket/log, slurm.conf, state, spool, logs and pid files.
# Nothing under /etc/slurm or /etc/munge is read or written, no systemd is
# needed, and the TCP ports are picked free at start, so several clusters (or
# a real Slurm) can coexist on one machine.
#
#   start: prints `export SLURM_CONF=DIR/slurm.conf` once the node is idle;
#          on failure prints one line `slurm unavailable: WHY` to stderr,
#          stops what it started and exits 77 (the "skipped" code of ctest).
#   stop:  cancels our jobs, stops slurmd, slurmctld, munged by their pid
#          files and waits for them; idempotent.
#
# Unusual settings and why:
# - DIR gets a+x: munged refuses a socket unless every directory above it is
#   executable by all. If a directory above DIR is not (e.g. DIR under /root),
#   munged gets --force, which turns that check into a warning; harmless here
#   as only root talks to this socket.
# - AuthInfo=socket=...: both auth/munge and cred/munge use it, so daemons,
#   clients and job credentials all go through our munged, not /run/munge.
# - The node is named after this host but has NodeAddr=127.0.0.1 and slurmd
#   is started with -N, so no DNS for the hostname is needed; SlurmctldHost=
#   localhost is accepted by slurmctld whatever the hostname is.
# - SelectTypeParameters=CR_CPU (not CR_Core): on a hyperthreaded machine
#   CR_Core would give each 1-CPU job a whole core; CR_CPU lets as many
#   1-CPU jobs run at once as there are CPUs.
# - proctrack/linuxproc, task/none, jobacct_gather/none: no cgroup setup, so
#   no cgroup.conf is needed and it works in containers.
# - SchedulerParameters=batch_sched_delay=0: by default a submitted batch job
#   waits up to 3 s for the next scheduling pass; tests want it at once.
# - MailProg=/bin/true: silences the startup check for a missing mail program.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin # the daemons live in sbin, not always on PATH

fail() {
  echo "slurm unavailable: $*" >&2
  ((STARTED)) && { stop_cluster >/dev/null 2>&1 || true; }
  exit 77
}

last_line() { # last non-empty line of the first non-empty file given
  local f l
  for f; do
    l=$(grep -v '^[[:space:]]*$' "$f" 2>/dev/null | tail -n 1 || true)
    [[ -n $l ]] && { echo "$l"; return 0; }
  done
  echo "(nothing in $*)"
}

runs() { # runs NAME PID -> true if PID is a live (not zombie) NAME
  local stat
  [[ $2 =~ ^[0-9]+$ ]] || return 1
  stat=$(cat "/proc/$2/stat" 2>/dev/null) || return 1
  stat=${stat##*) } # "STATE PPID ...": a zombie (Z) has exited already
  [[ $(cat "/proc/$2/comm" 2>/dev/null) == "$1" && ${stat%% *} != Z ]]
}

alive() { # alive NAME PIDFILE -> true if the pid in PIDFILE runs NAME
  [[ -s $2 ]] && runs "$1" "$(<"$2")"
}

free_port() { # a random port below the ephemeral range that no TCP socket uses
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
    [[ $p == "${1:-}" ]] && continue
    grep -q -- "$(printf ':%04X ' "$p")" /proc/net/tcp /proc/net/tcp6 2>/dev/null \
      || { echo "$p"; return 0; }
  done
  return 1
}

stop_one() { # stop_one NAME PIDFILE: TERM, wait up to 20 s, then KILL
  local pid
  alive "$1" "$2" || { rm -f "$2"; return 0; }
  pid=$(<"$2") # slurmctld deletes its pid file before it has exited
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    runs "$1" "$pid" || break
    sleep 0.2
  done
  if runs "$1" "$pid"; then kill -KILL "$pid" 2>/dev/null || true; sleep 0.5; fi
  rm -f "$2"
}

stop_cluster() {
  local jobs
  if alive slurmctld "$DIR/slurmctld.pid" && [[ -f $DIR/slurm.conf ]]; then
    export SLURM_CONF=$DIR/slurm.conf
    jobs=$(squeue -h -o %A 2>/dev/null || true) # our jobs: kill them first
    # shellcheck disable=SC2086 # one job id per word
    [[ -z $jobs ]] || scancel $jobs 2>/dev/null || true
    for _ in $(seq 1 50); do
      [[ -z $(squeue -h -o %A 2>/dev/null || true) ]] && break
      sleep 0.2
    done
  fi
  stop_one slurmd "$DIR/slurmd.pid"
  stop_one slurmctld "$DIR/slurmctld.pid"
  stop_one munged "$DIR/munge/munged.pid"
}

start_cluster() {
  local cmd pkg force="" d node topo ctld_port d_port state
  for cmd in munged:munge slurmctld:slurmctld slurmd:slurmd \
    sinfo:slurm-client squeue:slurm-client scontrol:slurm-client; do
    pkg=${cmd#*:}
    command -v "${cmd%%:*}" >/dev/null 2>&1 \
      || fail "package $pkg is missing (no ${cmd%%:*} command)"
  done
  [[ $DIR =~ ^[A-Za-z0-9/._-]+$ ]] || fail "DIR '$DIR' has characters slurm.conf cannot hold"
  ((${#DIR} < 80)) || fail "DIR '$DIR' is too long for a unix socket path"
  alive slurmctld "$DIR/slurmctld.pid" && fail "a cluster is already running in $DIR"

  # munge: key, then munged on our own socket.
  STARTED=1
  chmod a+x "$DIR"
  mkdir -p "$DIR/munge" "$DIR/state" "$DIR/spool"
  chmod 0755 "$DIR/munge"
  if command -v mungekey >/dev/null 2>&1; then
    mungekey -c -f -k "$DIR/munge/munge.key" >/dev/null 2>&1 || fail "mungekey could not create a key"
  else
    dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
  fi
  chmod 0600 "$DIR/munge/munge.key"
  d=$(dirname "$DIR")
  while [[ $d != / ]]; do
    [[ $(stat -c %A "$d") == *[xt] ]] || force=--force # see header
    d=$(dirname "$d")
  done
  munged $force --socket="$DIR/munge/munge.sock" --key-file="$DIR/munge/munge.key" \
    --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/munge/munged.log" \
    --seed-file="$DIR/munge/munged.seed" >"$DIR/munge/munged.out" 2>&1 \
    || fail "munged refused to start: $(last_line "$DIR/munge/munged.out" "$DIR/munge/munged.log")"

  # slurm.conf with this machine's real CPUs and memory.
  node=$(hostname -s 2>/dev/null || true)
  node=${node:-localhost}
  topo=$(slurmd -C 2>/dev/null | head -n 1 | tr ' ' '\n' \
    | grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore|RealMemory)=' \
    | tr '\n' ' ' || true)
  [[ $topo == *CPUs=*RealMemory=* ]] \
    || topo="CPUs=$(nproc) RealMemory=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024)) "
  ctld_port=$(free_port) || fail "no free TCP port found"
  d_port=$(free_port "$ctld_port") || fail "no free TCP port found"
  cat >"$DIR/slurm.conf" <<EOF
ClusterName=pegsimtest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.sock
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node ${topo}State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$DIR/slurm.conf

  # Foreground daemons (-D) in the background: we know their pid at once,
  # so a daemon that dies is noticed at once; they write the same pid file.
  slurmctld -D -f "$SLURM_CONF" </dev/null >"$DIR/slurmctld.out" 2>&1 &
  echo $! >"$DIR/slurmctld.pid"
  for _ in $(seq 1 100); do
    alive slurmctld "$DIR/slurmctld.pid" \
      || fail "slurmctld died: $(last_line "$DIR/slurmctld.log" "$DIR/slurmctld.out")"
    scontrol ping 2>/dev/null | grep -q 'is UP' && break
    sleep 0.3
  done
  scontrol ping 2>/dev/null | grep -q 'is UP' \
    || fail "slurmctld did not answer in 30 s: $(last_line "$DIR/slurmctld.log" "$DIR/slurmctld.out")"

  slurmd -D -f "$SLURM_CONF" -N "$node" </dev/null >"$DIR/slurmd.out" 2>&1 &
  echo $! >"$DIR/slurmd.pid"
  for _ in $(seq 1 120); do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    alive slurmd "$DIR/slurmd.pid" || fail "slurmd died: $(last_line "$DIR/slurmd.log" "$DIR/slurmd.out")"
    alive slurmctld "$DIR/slurmctld.pid" || fail "slurmctld died: $(last_line "$DIR/slurmctld.log" "$DIR/slurmctld.out")"
    sleep 0.5
  done
  [[ $state == idle ]] || fail "node $node never became idle in 60 s (state '${state:-none}'," \
    "reason '$(sinfo -h -n "$node" -o %E 2>/dev/null || true)')"
  echo "export SLURM_CONF=$SLURM_CONF"
}

STARTED=0
case "${1:-}:${2:-}" in
  start:?* | stop:?*) ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
[[ -d $2 ]] || { [[ $1 == stop ]] && exit 0; fail "directory $2 does not exist"; }
DIR=$(cd "$2" && pwd -P)
if [[ $1 == start ]]; then start_cluster; else stop_cluster; fi
