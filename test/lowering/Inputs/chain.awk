# A fusion of n element-wise ops (x = x + b, x = x * b, ...) over two ? x ? f32
# inputs: awk -v n=20000 -f chain.awk
BEGIN {
  T = "tensor<?x?xf32>"
  printf "func.func @chain(%%arg0: %s {fuser.stride_order = array<i64: 1, 0>}, %%arg1: %s {fuser.stride_order = array<i64: 1, 0>}) -> %s attributes {fuser.fusion} {\n", T, T, T
  printf "  %%v0 = \"fuser.add\"(%%arg0, %%arg1) : (%s, %s) -> %s\n", T, T, T
  for (i = 1; i < n; i++) printf "  %%v%d = \"fuser.%s\"(%%v%d, %%arg1) : (%s, %s) -> %s\n", i, (i % 2 ? "mul" : "add"), i - 1, T, T, T
  printf "  func.return %%v%d : %s\n}\n", n - 1, T
}
