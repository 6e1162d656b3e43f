#!/usr/bin/env bash
# One-node throw-away Slurm cluster from Debian 12's packages (Slurm 22.05,
# MUNGE 0.5.15), for end-to-end tests. Run as root. No systemd needed.
#
#   cluster.sh start DIR    install packages if missing, write everything into
#                           DIR, start munged + slurmctld + slurmd in the
#                           foreground form (backgrounded, pids recorded in
#                           DIR/run), wait until sinfo shows the node idle.
#                           Prints "export SLURM_CONF=DIR/slurm.conf" on stdout.
#   cluster.sh stop DIR     cancel this cluster's jobs, stop the three daemons by
#                           recorded pid, kill any job step of this cluster left
#                           behind, wait until all are gone.
#   cluster.sh prepare DIR  only write DIR (dirs, munge key, slurm.conf) and print
#                           the three daemon command lines (for a harness that
#                           spawns and reaps the daemons itself).
#   cluster.sh env DIR      print the export line clients need.
#
# Nothing outside DIR is written at run time. Installing the packages (once)
# writes what Debian's maintainer scripts write: users munge and slurm,
# /etc/munge/munge.key (munge's postinst), /var/lib/{munge,slurm},
# /var/log/{munge,slurm}, /etc/slurm/plugstack.conf, /etc/systemd symlinks.
#
# Environment:
#   SLURM_LAB_CTLD_PORT, SLURM_LAB_SLURMD_PORT   fixed ports (default: a free
#        random pair in 20000-31999, below the kernel's ephemeral range; a start
#        that loses a race for the pair retries with another one)
#   SLURM_LAB_CPUS      CPUs declared for the node (default 4, more than the
#                       hardware has: accepted thanks to config_overrides)
#   SLURM_LAB_NODENAME  node name (default `hostname -s`; any name works since
#                       slurmd gets it with -N and NodeAddr is 127.0.0.1)
#   SLURM_LAB_TIMEOUT   seconds to wait for the node to be idle (default 60)
#   SLURM_LAB_NO_INSTALL=1   never call apt-get (fail if packages are missing)
set -euo pipefail

PKGS=(slurmctld slurmd slurm-client munge)
die() { echo "cluster.sh: $*" >&2; exit 1; }
log() { echo "cluster.sh: $*" >&2; }

# ---------------------------------------------------------------- install
ensure_packages() {
    local missing=() p
    for p in "${PKGS[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "${SLURM_LAB_NO_INSTALL:-0}" = 1 ] && die "missing packages: ${missing[*]}"
    log "installing ${missing[*]}"
    # The postinsts try to start the services through invoke-rc.d; in this
    # sandbox /usr/sbin/policy-rc.d (exit 101) refuses that, and there is no
    # systemd. Nothing of that is used here: the daemons get their own config.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}" >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; } \
      || die "apt-get install ${missing[*]} failed"
}

# ---------------------------------------------------------------- helpers
port_in_use() { ss -Htan "sport = :$1" 2>/dev/null | grep -q .; }

pick_ports() {
    if [ -n "${SLURM_LAB_CTLD_PORT:-}" ] || [ -n "${SLURM_LAB_SLURMD_PORT:-}" ]; then
        CTLD_PORT=${SLURM_LAB_CTLD_PORT:?set both SLURM_LAB_CTLD_PORT and SLURM_LAB_SLURMD_PORT}
        SLURMD_PORT=${SLURM_LAB_SLURMD_PORT:?set both SLURM_LAB_CTLD_PORT and SLURM_LAB_SLURMD_PORT}
        return
    fi
    local n p
    for n in $(seq 1 200); do
        p=$((20000 + 2 * ((RANDOM * 32768 + RANDOM) % 6000)))
        if ! port_in_use $p && ! port_in_use $((p + 1)); then
            CTLD_PORT=$p; SLURMD_PORT=$((p + 1)); return
        fi
    done
    die "no free port pair found"
}

# pid_is PID NAME: PID is alive, its comm is NAME (guards against pid reuse),
# and it is not a zombie. The daemons are children of the short-lived `start`
# shell, so after they exit they are reaped by PID 1 -- which in a sandbox
# whose PID 1 is not a real init may take a second or two.
pid_is() {
    local pid=$1 name=$2 comm stat
    [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [ "$comm" = "$name" ] || return 1
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

dump_logs() {
    local d=$1 f
    for f in "$d"/log/*; do
        [ -f "$f" ] || continue
        echo "===== $f (last 30 lines) =====" >&2
        tail -n 30 "$f" >&2
    done
}

# Processes left by this cluster: every slurmstepd whose working directory is
# DIR/spool (slurmd is started there and slurmstepd keeps slurmd's cwd; its
# environment is no use as a marker because slurmstepd overwrites its environ
# area with its process title) plus all their descendants (the job's tasks).
cluster_procs() {
    local spool="$1/spool" p found=" " pid ppid stat added=1 table
    for p in /proc/[0-9]*; do
        [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
        [ "$(readlink "$p/cwd" 2>/dev/null)" = "$spool" ] || continue
        found="$found${p#/proc/} "
    done
    [ "$found" = " " ] && return 0
    table=$(ps -e -o pid=,ppid=,stat=)
    while [ $added = 1 ]; do
        added=0
        while read -r pid ppid stat; do
            case "$stat" in Z*) continue ;; esac
            case "$found" in *" $pid "*) continue ;; esac
            case "$found" in *" $ppid "*) found="$found$pid "; added=1 ;; esac
        done <<< "$table"
    done
    echo $found
}

# ---------------------------------------------------------------- config
write_config() {
    local d=$1 host=$2 cpus=$3
    cat > "$d/slurm.conf" <<EOF
# generated by cluster.sh -- throw-away one-node test cluster
ClusterName=lab$CTLD_PORT
# "localhost" is accepted by slurmctld whatever the machine's hostname is;
# any other name must equal \`hostname -s\` ("This host not a valid controller")
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root

AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge-run/munge.sock

StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.own.pid
SlurmdPidFile=$d/run/slurmd.own.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$d/plugstack.conf
TmpFS=$d/tmp
MailProg=/bin/true

# no cgroups: proctrack/cgroup fails in this sandbox ("cgroup namespace
# 'freezer' not mounted"); linuxproc tracks a job by its process tree
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobContainerType=job_container/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none

SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# default 3 s: batch jobs may wait that much longer to be scheduled
SchedulerParameters=batch_sched_delay=0
# accept the node's declared CPUs even though the hardware has fewer
SlurmdParameters=config_overrides
ReturnToService=2

SlurmctldTimeout=10
SlurmdTimeout=10
MessageTimeout=5
# SIGTERM->SIGKILL grace (man slurm.conf); but on scancel slurmd waits
# max(KillWait, 5) s before the SIGKILL (slurmd req.c _rpc_terminate_job)
KillWait=2
# finished jobs stay visible to squeue -t all / scontrol show job this long
MinJobAge=600
InactiveLimit=0
Waittime=0

NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    : > "$d/plugstack.conf"
}

# prepare_dir DIR: fresh subdirs, munge key, slurm.conf; sets HOST
prepare_dir() {
    local d=$1
    HOST=${SLURM_LAB_NODENAME:-$(hostname -s)}
    pick_ports
    # munged wants every directory on the way to its socket world-executable
    # (mktemp -d makes 0700 -> "Socket is inaccessible") and the key private
    chmod 0711 "$d"
    rm -rf "$d/munge" "$d/munge-run" "$d/state" "$d/spool" "$d/run" "$d/log" "$d/tmp"
    mkdir -p "$d/munge" "$d/munge-run" "$d/state" "$d/spool" "$d/run" "$d/log" "$d/tmp"
    chmod 0700 "$d/munge"; chmod 0755 "$d/munge-run"; chmod 1777 "$d/tmp"
    mungekey --create --keyfile="$d/munge/munge.key" 2>>"$d/log/munged.log" \
        || die "mungekey failed"
    write_config "$d" "$HOST" "${SLURM_LAB_CPUS:-4}"
}

# the three daemons, in the foreground form (-F / -D), as "cwd command..." lines
daemon_cmds() {
    local d=$1
    cat <<EOF
munged	$d/munge-run	munged --foreground --key-file=$d/munge/munge.key --socket=$d/munge-run/munge.sock --pid-file=$d/munge-run/munged.pid --seed-file=$d/munge/munged.seed --log-file=$d/log/munged.log
slurmctld	$d/state	slurmctld -D -c -i -f $d/slurm.conf
slurmd	$d/spool	slurmd -D -f $d/slurm.conf -N $HOST
EOF
}

# ---------------------------------------------------------------- start
# launch NAME: start daemon NAME (from daemon_cmds) in the background with its
# cwd and output file; record its pid in DIR/run/NAME.pid
launch() {
    local d=$1 name=$2 cwd cmd
    IFS=$'\t' read -r _ cwd cmd < <(daemon_cmds "$d" | grep "^$name	")
    # shellcheck disable=SC2086  # cmd holds no spaces inside arguments
    (cd "$cwd" && exec $cmd </dev/null >>"$d/log/$name.out" 2>&1) &
    echo $! > "$d/run/$name.pid"
}

# one attempt; returns 0 on success, 2 on a port conflict, dies otherwise
start_attempt() {
    local d=$1 timeout=${SLURM_LAB_TIMEOUT:-60} i t0 state=""
    prepare_dir "$d"
    export SLURM_CONF=$d/slurm.conf

    launch "$d" munged
    for i in $(seq 1 100); do
        [ -S "$d/munge-run/munge.sock" ] && break
        pid_is "$(cat "$d/run/munged.pid")" munged || fail_start "$d" "munged died"
        sleep 0.05
    done
    munge -n -S "$d/munge-run/munge.sock" | unmunge -S "$d/munge-run/munge.sock" >/dev/null \
        || fail_start "$d" "munge self-test failed"

    launch "$d" slurmctld
    launch "$d" slurmd

    t0=$SECONDS
    while :; do
        state=$(sinfo -h -n "$HOST" -o %T 2>/dev/null || true)
        [ "$state" = idle ] && break
        for i in slurmctld slurmd; do
            pid_is "$(cat "$d/run/$i.pid")" $i && continue
            if grep -q 'Address already in use' "$d/log/$i.out" 2>/dev/null \
               && [ -z "${SLURM_LAB_CTLD_PORT:-}" ]; then
                log "port $CTLD_PORT/$SLURMD_PORT taken meanwhile, retrying with others"
                ( stop_cluster "$d" ) >/dev/null 2>&1 || true
                return 2
            fi
            fail_start "$d" "$i died"
        done
        if [ $((SECONDS - t0)) -ge "$timeout" ]; then
            sinfo -N -l >&2 || true
            scontrol show node "$HOST" >&2 || true
            fail_start "$d" "node $HOST not idle after ${timeout}s (state: '${state:-none}')"
        fi
        sleep 0.1
    done
}

# start failed: show the logs, stop whatever was started, exit 1
fail_start() {
    local d=$1 msg=$2
    dump_logs "$d"
    log "start failed: $msg; stopping what was started"
    ( stop_cluster "$d" ) || true
    die "$msg"
}

start_cluster() {
    local d=$1 attempt rc
    [ "$(id -u)" = 0 ] || die "must run as root"
    ensure_packages
    mkdir -p "$d"
    d=$(cd "$d" && pwd -P)
    [ -e "$d/slurm.conf" ] && die "$d already holds a cluster (slurm.conf exists)"
    case "$d" in *[[:space:]]*) die "DIR must not contain whitespace: '$d'" ;; esac
    for attempt in 1 2 3; do
        rc=0; start_attempt "$d" || rc=$?
        [ $rc = 0 ] && break
        [ $rc = 2 ] && [ $attempt -lt 3 ] && continue
        die "could not start (rc $rc)"
    done
    log "cluster up in $d (ctld port $CTLD_PORT, slurmd port $SLURMD_PORT, node $HOST idle)"
    echo "export SLURM_CONF=$d/slurm.conf"
}

# ---------------------------------------------------------------- stop
# stop_pids GRACE PID NAME [PID NAME]...: SIGTERM each live PID whose comm is
# NAME, wait up to GRACE seconds for all of them, then SIGKILL the rest.
stop_pids() {
    local grace=$1 i j live
    shift
    local -a pids=() names=()
    while [ $# -ge 2 ]; do
        if pid_is "$1" "$2"; then pids+=("$1"); names+=("$2"); kill -TERM "$1" 2>/dev/null || true; fi
        shift 2
    done
    [ ${#pids[@]} = 0 ] && return 0
    for i in $(seq 1 $((grace * 20))); do
        live=0
        for j in "${!pids[@]}"; do pid_is "${pids[$j]}" "${names[$j]}" && live=1; done
        [ $live = 0 ] && return 0
        sleep 0.05
    done
    for j in "${!pids[@]}"; do
        if pid_is "${pids[$j]}" "${names[$j]}"; then
            log "${names[$j]} (${pids[$j]}) ignored SIGTERM for ${grace}s, sending SIGKILL"
            kill -KILL "${pids[$j]}" 2>/dev/null || true
        fi
    done
    for i in $(seq 1 50); do
        live=0
        for j in "${!pids[@]}"; do pid_is "${pids[$j]}" "${names[$j]}" && live=1; done
        [ $live = 0 ] && return 0
        sleep 0.1
    done
    die "could not stop: ${names[*]}"
}

stop_cluster() {
    local d=$1
    [ -f "$d/slurm.conf" ] || die "$d holds no cluster"
    d=$(cd "$d" && pwd -P)
    export SLURM_CONF=$d/slurm.conf
    local ctld slurmd munged i left
    ctld=$(cat "$d/run/slurmctld.pid" 2>/dev/null || true)
    slurmd=$(cat "$d/run/slurmd.pid" 2>/dev/null || true)
    munged=$(cat "$d/run/munged.pid" 2>/dev/null || true)

    # 1. cancel this cluster's jobs while the daemons still run: slurmstepd
    #    then kills the jobs' processes (slurmd's own exit leaves them running).
    #    Processes ignoring SIGTERM get SIGKILL after max(KillWait, 5) s.
    if pid_is "$ctld" slurmctld && pid_is "$slurmd" slurmd; then
        if [ -n "$(squeue -h -t PD,R,CG,S -o %i 2>/dev/null)" ]; then
            scancel --partition=debug 2>/dev/null || true
            for i in $(seq 1 150); do
                [ -z "$(squeue -h -t PD,R,CG,S -o %i 2>/dev/null)" ] && break
                sleep 0.1
            done
        fi
    fi
    # 2. slurmd and slurmctld together, each by its recorded pid
    stop_pids 10 "$slurmd" slurmd "$ctld" slurmctld
    # 3. job steps of this cluster still around (cancel impossible or too slow)
    left=$(cluster_procs "$d")
    if [ -n "$left" ]; then
        log "killing leftover processes of this cluster: $left"
        kill -KILL $left 2>/dev/null || true
        for i in $(seq 1 50); do
            left=$(cluster_procs "$d"); [ -z "$left" ] && break; sleep 0.1
        done
    fi
    # 4. munged last (slurmd and slurmctld need it until they exit)
    stop_pids 5 "$munged" munged
    left=$(cluster_procs "$d")
    [ -z "$left" ] || die "processes left behind: $left"
    log "cluster in $d stopped"
}

case "${1:-}:$#" in
    start:2)   start_cluster "$2" ;;
    stop:2)    stop_cluster "$2" ;;
    env:2)     echo "export SLURM_CONF=$(cd "$2" && pwd -P)/slurm.conf" ;;
    prepare:2) [ "$(id -u)" = 0 ] || die "must run as root"
               ensure_packages; mkdir -p "$2"; d=$(cd "$2" && pwd -P)
               [ -e "$d/slurm.conf" ] && die "$d already holds a cluster"
               prepare_dir "$d"
               echo "# name<TAB>cwd<TAB>command; run each with SLURM_CONF=$d/slurm.conf"
               daemon_cmds "$d" ;;
    *) die "usage: $0 start|stop|prepare|env DIR" ;;
esac
