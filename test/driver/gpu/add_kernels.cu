// add_kernels.cu: the GPU self-test's kernels, hand-written so that the test
// needs no MLIR: compiled on the GPU machine with `nvcc -arch=sm_90 -ptx`.
// out = a + b over n f32 elements; add_vec4 moves 16 bytes per access and
// needs a, b, out 16-byte aligned and n % 4 == 0 (the artifact's variant
// conditions say so); add_scalar is the unconditional fallback.
extern "C" __global__ void add_vec4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                    float4 *__restrict__ out, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    float4 x = a[i], y = b[i];
    out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

extern "C" __global__ void add_scalar(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ out, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
