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

// The pipeline artifact's kernels (several launches, a zero-initialised
// temp, i32 and f32 parameters, a 2-D grid):
//   scale:          y = alpha * x
//   count_positive: counter += #(y > 0), grid (gx, gy) flattened
//   store_count:    out[0] = counter
extern "C" __global__ void scale(const float *__restrict__ x, float *__restrict__ y, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}

extern "C" __global__ void count_positive(const float *__restrict__ y, unsigned *counter, int n) {
  long long i = ((long long)blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && y[i] > 0.0f) atomicAdd(counter, 1u);
}

extern "C" __global__ void store_count(const unsigned *counter, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = (int)counter[0];
}
