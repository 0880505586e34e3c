#!/bin/bash
# Submits a sharded generate run and its merge:
#   deploy/slurm/submit.sh SHARDS OUTDIR [generate arguments...]
# e.g. deploy/slurm/submit.sh 4 /shared/run1 --stip '#2' --trapdoor 1 --count 50 --seed 7
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=${1:?usage: submit.sh SHARDS OUTDIR [generate arguments...]}
out=${2:?usage: submit.sh SHARDS OUTDIR [generate arguments...]}
shift 2
array=$(sbatch --parsable --array=0-$((shards - 1)) "$here/generate.sbatch" "$out" "$@")
merge=$(sbatch --parsable --dependency=afterok:"$array" "$here/merge.sbatch" "$out")
echo "array job $array, merge job $merge: $out/puzzles.epd"
