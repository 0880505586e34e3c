#!/bin/bash
# Starts a one-node Slurm on this machine (Debian's slurm-wlm and munge), submits a
# 4-task array of `fairysolve generate`, merges the shards, and checks the merged file
# against the same run made in one process. Needs root; installs the packages when
# missing. Usage: deploy/slurm/local-test.sh [path/to/fairysolve]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "${1:-$here/../../target/release/fairysolve}")
[ -x "$bin" ] || { echo "no fairysolve binary at $bin (cargo build --release)" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
cpus=$(nproc)
mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=fairysolve-test
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmUser=root
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
echo 'ConstrainCores=no' > /etc/slurm/cgroup.conf

# munge: a key and its daemon.
if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- munged --force
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 30); do
    sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mixed' && break
    scontrol update nodename="$host" state=resume 2>/dev/null || true
    sleep 1
done
sinfo

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(--stip '#2' --trapdoor 1 --seed 7 --candidates 4000)
cd "$work"
array=$(FAIRYSOLVE="$bin" sbatch --parsable --export=ALL --cpus-per-task=1 --array=0-3 \
    "$here/generate.sbatch" "$work/out" "${args[@]}")
merge=$(FAIRYSOLVE="$bin" sbatch --parsable --export=ALL --dependency=afterok:"$array" \
    "$here/merge.sbatch" "$work/out")
echo "submitted array $array and merge $merge"
for _ in $(seq 600); do
    squeue -h -j "$array,$merge" 2>/dev/null | grep -q . || break
    sleep 1
done
sacct -j "$array,$merge" 2>/dev/null || true
"$bin" generate "${args[@]}" > "$work/whole.epd" 2>/dev/null
echo "shards: $(cat "$work"/out/shard-*.epd | wc -l) puzzles; merged: $(wc -l < "$work/out/puzzles.epd"); one process: $(wc -l < "$work/whole.epd")"
if cmp -s "$work/out/puzzles.epd" "$work/whole.epd"; then
    echo "the merged shards are the unsharded run, byte for byte"
else
    diff "$work/out/puzzles.epd" "$work/whole.epd" | head
    echo "MISMATCH" >&2
    exit 1
fi
