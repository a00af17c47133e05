#!/usr/bin/env bash
# A throwaway one-node Slurm cluster on this machine, for trying job arrays
# without a real cluster.
#
#   scripts/slurm/start-cluster.sh [COMMAND [ARGS...]]
#
# Starts munged, slurmctld and slurmd (installing Debian's slurm-wlm and munge
# first if they are missing), waits until the node is idle, runs COMMAND with
# SLURM_CONF pointing at the cluster (default: a four-task demo array that
# prints each task's host and index), then stops exactly the daemons it started
# and removes their folder. Needs root: slurmd launches jobs as their owner.
#
# Other scripts source this file and call `cluster_start`; the daemons are
# stopped when that script exits, however it exits.
#
# Everything lives in one temporary folder (config, munge key and socket,
# state, spool, logs); nothing under /etc or /var is changed apart from the
# packages. Environment: SLURMCTLD_PORT (default 6817), SLURMD_PORT (6818),
# CLUSTER_CPUS (2), KEEP_CLUSTER_DIR=1 keeps the folder for reading the logs.

# The pids this file started, stopped in reverse order by cluster_stop.
cluster_pids=()
cluster_dir=

cluster_die() {
    echo "start-cluster: $*" >&2
    exit 1
}

# apt-get only when a daemon or client is missing: on a prepared machine this
# costs nothing and needs no network.
cluster_install() {
    local tool missing=0
    for tool in munged mungekey slurmctld slurmd sbatch sinfo; do
        command -v "$tool" >/dev/null 2>&1 || missing=1
    done
    [[ $missing == 0 ]] && return 0
    echo "start-cluster: installing slurm-wlm and munge" >&2
    apt-get update -q >&2 || cluster_die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >&2 \
        || cluster_die "apt-get install slurm-wlm munge failed"
}

# Wait up to $1 seconds for the command that follows to succeed.
cluster_wait_for() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}

# Like cluster_wait_for, but give up at once if a daemon we started has died.
cluster_wait_ready() {
    local seconds=$1 pid
    shift
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        for pid in "${cluster_pids[@]}"; do
            kill -0 "$pid" 2>/dev/null || return 1
        done
        ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}

# Print the last lines of every daemon log, so a failed start explains itself.
cluster_show_logs() {
    local log
    for log in "$cluster_dir"/log/*.log; do
        [[ -s $log ]] || continue
        echo "--- $log (last 15 lines)" >&2
        tail -n 15 "$log" >&2
    done
}

# Start a daemon in the foreground of its own session and remember its pid.
# Its own session keeps a Ctrl-C meant for this script from killing it before
# cluster_stop has cancelled the jobs; setsid and setpriv exec rather than fork
# (a background child is no group leader), so $! is the daemon itself.
cluster_spawn() {
    local name=$1
    shift
    setsid "$@" >"$cluster_dir/log/$name.out" 2>&1 &
    cluster_pids+=($!)
}

cluster_port_is_free() {
    ! ss -Hltn "sport = :$1" | grep -q .
}

cluster_munge_answers() {
    munge --no-input --socket="$MUNGE_SOCKET" | unmunge --socket="$MUNGE_SOCKET"
}

cluster_queue_is_empty() {
    [[ -z $(squeue --noheader) ]]
}

cluster_process_is_gone() {
    ! kill -0 "$1" 2>/dev/null
}

cluster_node_is_idle() {
    [[ $(sinfo --noheader --nodes="$cluster_node" --format=%t 2>/dev/null) == idle ]]
}

cluster_start() {
    [[ $(id -u) == 0 ]] || cluster_die "must run as root (slurmd launches jobs as their owner)"
    cluster_install
    local started=$SECONDS
    local ctld_port=${SLURMCTLD_PORT:-6817} slurmd_port=${SLURMD_PORT:-6818}
    local cpus=${CLUSTER_CPUS:-2}
    for port in "$ctld_port" "$slurmd_port"; do
        cluster_port_is_free "$port" \
            || cluster_die "port $port is in use (another Slurm?); set SLURMCTLD_PORT/SLURMD_PORT"
    done
    cluster_node=$(hostname -s)
    cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/lightsout-slurm.XXXXXX")
    trap cluster_stop EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # munged runs as the munge user and refuses paths others could write to.
    chmod 755 "$cluster_dir"
    mkdir -p "$cluster_dir"/{munge,state,spool,log,jobs}

    local munge=$cluster_dir/munge
    mungekey --create --keyfile="$munge/munge.key" \
        || cluster_die "mungekey could not create a key"
    chown -R munge:munge "$munge"
    chmod 755 "$munge"
    chmod 400 "$munge/munge.key"
    export MUNGE_SOCKET=$munge/munge.socket
    cluster_spawn munged setpriv --reuid=munge --regid=munge --init-groups \
        munged --foreground --key-file="$munge/munge.key" --socket="$MUNGE_SOCKET" \
        --pid-file="$munge/munged.pid" --seed-file="$munge/munged.seed" \
        --log-file="$cluster_dir/log/munged.log"
    cluster_wait_ready 10 cluster_munge_answers \
        || { cluster_show_logs; cluster_die "munged did not start (or answer within 10 s)"; }

    # One node with $cpus CPUs. Memory is not a consumable resource (CR_CPU):
    # otherwise each task would claim the whole node and tasks would run one at
    # a time. RealMemory only has to be at most what the machine has.
    export SLURM_CONF=$cluster_dir/slurm.conf
    cat > "$SLURM_CONF" <<EOF
ClusterName=lightsout
# Loopback addresses: the cluster works whether or not the hostname resolves.
SlurmctldHost=$cluster_node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$cluster_dir/state
SlurmdSpoolDir=$cluster_dir/spool
SlurmctldPidFile=$cluster_dir/slurmctld.pid
SlurmdPidFile=$cluster_dir/slurmd.pid
SlurmctldLogFile=$cluster_dir/log/slurmctld.log
SlurmdLogFile=$cluster_dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
# sbatch --wait polls every 2 s, then 8, then 32, while that is under half of
# MinJobAge (default 300): a 4 s job age keeps the poll at 2 s, so a wall time
# measured around sbatch --wait is the job's, not the poll's.
MinJobAge=4
# No slurmdbd here, so sacct has nothing to read; finished jobs go to a text file.
JobCompType=jobcomp/filetxt
JobCompLoc=$cluster_dir/log/jobcomp.txt
NodeName=$cluster_node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=main Nodes=$cluster_node Default=YES MaxTime=INFINITE State=UP
EOF
    cluster_spawn slurmctld slurmctld -D -f "$SLURM_CONF"
    cluster_spawn slurmd slurmd -D -f "$SLURM_CONF"
    cluster_wait_ready 60 cluster_node_is_idle || {
        sinfo >&2 || true
        cluster_show_logs
        cluster_die "node $cluster_node did not become idle (a daemon died, or 60 s passed)"
    }
    echo "start-cluster: node $cluster_node idle after $((SECONDS - started)) s; daemons ${cluster_pids[*]}" >&2
}

# Cancel our jobs, then stop the daemons we started, newest first, by pid.
cluster_stop() {
    local status=$?
    trap - EXIT INT TERM
    # Stopping must go on past any failure.
    set +e
    if [[ -n ${SLURM_CONF:-} && -n $(squeue --noheader 2>/dev/null) ]]; then
        scancel --user=root 2>/dev/null
        cluster_wait_for 20 cluster_queue_is_empty \
            || echo "start-cluster: jobs still queued after scancel" >&2
    fi
    local i pid
    for ((i = ${#cluster_pids[@]} - 1; i >= 0; i--)); do
        pid=${cluster_pids[i]}
        kill -TERM "$pid" 2>/dev/null || continue
        cluster_wait_for 15 cluster_process_is_gone "$pid" || kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    ((${#cluster_pids[@]} == 0)) || echo "start-cluster: stopped daemons ${cluster_pids[*]}" >&2
    cluster_pids=()
    if [[ -n $cluster_dir ]]; then
        if [[ ${KEEP_CLUSTER_DIR:-0} == 1 ]]; then
            echo "start-cluster: kept $cluster_dir" >&2
        else
            rm -rf "$cluster_dir"
        fi
    fi
    exit "$status"
}

# A placeholder job: every task says where it ran and which slice it is.
cluster_demo() {
    local job=$cluster_dir/jobs/demo.sh
    cat > "$job" <<'EOF'
#!/bin/bash
echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT on $(hostname -s), job $SLURM_ARRAY_JOB_ID"
EOF
    sinfo
    sbatch --wait --array=1-4 --output="$cluster_dir/jobs/demo-%a.out" "$job"
    cat "$cluster_dir"/jobs/demo-*.out
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    set -euo pipefail
    cluster_start
    if (($# == 0)); then
        cluster_demo
    else
        "$@"
    fi
fi
