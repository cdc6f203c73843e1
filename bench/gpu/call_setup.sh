# call_setup.sh (sourced by a session's device call script, from the checkout's root): what
# every call does first. Makes the raw folder R (emptied) and defines
#   el TEXT   prints TEXT and the seconds since the call began;
#   keep      tars R into $OUT/RAW_NAME (after each step, so a call cut short keeps what ran);
# prints the GPU (also into $OUT/gpu.txt), unpacks the binding's libfuser.so in BINDING_CARRY
# (python_run.sh prepare; "-" for none) and builds the runtime (fuser-run) into /tmp/rt once
# per machine, with dlpack.h from DLPACK_CARRY/include.
#   . bench/gpu/call_setup.sh RAW_DIR RAW_NAME DLPACK_CARRY BINDING_CARRY
start=$(date +%s)
R=${1:?} raw_name=${2:?}
rm -rf "$R" && mkdir -p "$R"
el() { echo "$1 at $(( $(date +%s) - start )) s"; }
keep() { tar czf "$OUT/$raw_name" -C "$R" .; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
if [ "${4:?}" != - ]; then
  for z in "$4"/lib/*.xz; do [ -f "$z" ] && xz -d -f "$z"; done
fi
if [ ! -x /tmp/rt/fuser-run ]; then
  FUSER_DLPACK_INCLUDE=${3:?}/include bash scripts/build-runtime.sh /tmp/rt > /tmp/rt.log 2>&1 || { tail /tmp/rt.log; exit 1; }
fi
el built
