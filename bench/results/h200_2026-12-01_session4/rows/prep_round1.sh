#!/usr/bin/env bash
# experiment artifacts for the mid-way GPU round (needs the local FUSER_EXP_ROW / FUSER_EXP_MINB hook)
set -euo pipefail
wt=/work/wt-rows; T=$wt/build/bin/fuser-translate
carry=${1:-/work/main/.carry/rows/exp}
rm -rf "$carry"; mkdir -p "$carry/arts" "$carry/scripts"
cd "$carry/scripts"
python3 $wt/bench/reductions/make_scripts.py big --elems 134217728 65536 262144
python3 $wt/bench/reductions/make_scripts.py small --elems 524288 65536 262144
cp $wt/bench/reductions/large/log_softmax_large.py big/
sed -e 's/4096, 32000/16, 32000/g; s/log_softmax_large/log_softmax_small32k/g' big/log_softmax_large.py > small/log_softmax_small32k.py
mk() { # name script cfg minb expected
  FUSER_EXP_ROW="$3" FUSER_EXP_MINB="$4" $T --emit-artifact "$2" -o "$carry/arts/$1.fart" $5 || echo "FAILED $1"
}
for tag in base:: A:4,1024,1,1:1 B:8,512,1,1:1 C:2,1024,2,1:1 D:4,512,2,0:1 E:4,1024,1,1:0; do
  IFS=: read -r t cfg mb <<< "$tag"
  mk "ls32k_$t" big/log_softmax_large.py "$cfg" "$mb" ""
  mk "chk_ls32k_$t" small/log_softmax_small32k.py "$cfg" "$mb" --expected
done
for tag in base:: A:4,1024,2,1:1 C:2,1024,4,1:1 D:4,1024,2,0:0; do
  IFS=: read -r t cfg mb <<< "$tag"
  mk "sm64k_$t" big/softmax_n65536.py "$cfg" "$mb" ""
  mk "chk_sm64k_$t" small/softmax_n65536.py "$cfg" "$mb" --expected
done
for tag in base:: A:4,1024,8,1:1 D:4,1024,8,0:0 B:8,512,8,1:1; do
  IFS=: read -r t cfg mb <<< "$tag"
  mk "sm256k_$t" big/softmax_n262144.py "$cfg" "$mb" ""
  mk "chk_sm256k_$t" small/softmax_n262144.py "$cfg" "$mb" --expected
done
for tag in base:: A:4,1024,2,1:1; do
  IFS=: read -r t cfg mb <<< "$tag"
  mk "rms64k_$t" big/rmsnorm_n65536.py "$cfg" "$mb" ""
  mk "chk_rms64k_$t" small/rmsnorm_n65536.py "$cfg" "$mb" --expected
done
for tag in base:: A:4,1024,8,1:1; do
  IFS=: read -r t cfg mb <<< "$tag"
  mk "rms256k_$t" big/rmsnorm_n262144.py "$cfg" "$mb" ""
  mk "chk_rms256k_$t" small/rmsnorm_n262144.py "$cfg" "$mb" --expected
done
du -sh "$carry"
