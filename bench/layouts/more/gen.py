"""Writes the layout scripts of bench/layouts/more/ (issue 15's kept-back
layouts: like the table patterns, not identical), each with a _large twin
(~256 MB-1 GB moved, for the GPU) and a _small one (< 4 MB, for memcheck and
the CPU JIT against the reference). Run: python3 gen.py (in this folder)."""
import os

DT = {'bf16': ('BFloat16', 'torch.bfloat16'), 'f16': ('Half', 'torch.float16'), 'f32': ('Float', 'torch.float32')}

def tensor(name, rank, dt, order=None, shape=None):
    order = order or list(range(rank - 1, -1, -1))
    shape = shape or [-1] * rank
    return (f"    {name} = fd.define_tensor(shape={shape}, contiguity={[True] * rank}, dtype=DataType.{DT[dt][0]}, "
            f"is_cpu=False, stride_order={order})")

def script(name, comment, body, inputs):
    fn = 'fusion_' + name.rsplit('_', 1)[0]
    lines = ['import torch', 'from nvfuser import FusionDefinition, DataType', '']
    lines += ['# ' + c for c in comment.split('\n')]
    lines += [f'def {fn}(fd : FusionDefinition) -> None :'] + body + ['', 'with FusionDefinition() as fd:', f'    {fn}(fd)', '', 'inputs = [']
    lines += [f'    {i},' for i in inputs] + [']', 'fd.execute(inputs)', '']
    open(name + '.py', 'w').write('\n'.join(lines))

def randn(shape, dt):
    return f"torch.randn({tuple(shape)}, dtype={DT[dt][1]}, device='cuda:0')"

def strided(storage, dt, size, stride, offset):
    return f"torch.randn(({storage},), dtype={DT[dt][1]}, device='cuda:0').as_strided({tuple(size)}, {tuple(stride)}, {offset})"

def twins(make, **sizes):
    for tag, args in sizes.items():
        make(tag, *args)

# 1. x + permute(y) of 3-D tensors, permutation [0, 2, 1]: a batched true transpose.
def t021(tag, B, M, N, dt):
    body = [tensor('T0', 3, dt), tensor('T1', 3, dt), '    T2 = fd.ops.permute(T1, dims=[0, 2, 1])',
            '    T3 = fd.ops.add(T0, T2)', f'    T4 = fd.ops.cast(T3, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f't021_add_{dt}_{tag}', 'x + permute(y, [0, 2, 1]): a batched true transpose (y read across its rows).', body,
           [randn((B, M, N), dt), randn((B, N, M), dt)])
for dt, L, S in (('bf16', (32, 2048, 2048), (4, 100, 130)), ('f32', (16, 2048, 2048), (3, 70, 130))):
    t021('large', *L, dt); t021('small', *S, dt)

# 2. permutation [2, 1, 0]: the transposed pair is the outer and the inner dim, the middle one a batch.
def t210(tag, K, M, N, dt):
    body = [tensor('T0', 3, dt), tensor('T1', 3, dt), '    T2 = fd.ops.permute(T1, dims=[2, 1, 0])',
            '    T3 = fd.ops.mul(T0, T2)', f'    T4 = fd.ops.cast(T3, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f't210_mul_{dt}_{tag}', 'x * permute(y, [2, 1, 0]): outer and inner dims swapped, the middle one kept.', body,
           [randn((K, M, N), dt), randn((N, M, K), dt)])
t210('large', 1024, 64, 1024, 'f16'); t210('small', 64, 6, 72, 'f16')

# 3. NCHW + NHWC: one input channels-last (stride_order [3, 0, 2, 1]), one contiguous.
def nchw(tag, N, C, H, W, dt):
    body = [tensor('T0', 4, dt), tensor('T1', 4, dt, order=[3, 0, 2, 1]), '    T2 = fd.ops.add(T0, T1)',
            '    T3 = fd.ops.relu(T2)', f'    T4 = fd.ops.cast(T3, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f'nchw_nhwc_{dt}_{tag}', 'x (NCHW) + y (channels-last, NHWC in memory): y is transposed between C and H*W.', body,
           [randn((N, C, H, W), dt), strided(N * C * H * W, dt, (N, C, H, W), (H * W * C, 1, W * C, C), 0)])
nchw('large', 32, 128, 64, 64, 'bf16'); nchw('small', 2, 64, 14, 14, 'bf16')

# 4. channels-last output of a contiguous input: add_output(stride_order) (x.to(channels_last) with math).
def tolast(tag, N, C, H, W, dt):
    body = [tensor('T0', 4, dt), '    T1 = fd.ops.mul(T0, T0)', f'    T2 = fd.ops.cast(T1, dtype=DataType.{DT[dt][0]})',
            '    fd.add_output(T2, stride_order=[3, 0, 2, 1])']
    script(f'to_last_{dt}_{tag}', 'x * x written channels-last (NHWC in memory) from an NCHW input.', body, [randn((N, C, H, W), dt)])
tolast('large', 32, 64, 56, 56, 'f32'); tolast('small', 2, 32, 14, 14, 'f32')

# 5. channels-last input, contiguous output: stride_order on the input only.
def fromlast(tag, N, C, H, W, dt):
    body = [tensor('T0', 4, dt, order=[3, 0, 2, 1]), '    T1 = fd.ops.mul(T0, T0)', f'    T2 = fd.ops.cast(T1, dtype=DataType.{DT[dt][0]})',
            '    fd.add_output(T2, stride_order=[3, 2, 1, 0])']
    script(f'from_last_{dt}_{tag}', 'x * x of a channels-last input, written NCHW (contiguous).', body,
           [strided(N * C * H * W, dt, (N, C, H, W), (H * W * C, 1, W * C, C), 0)])
fromlast('large', 64, 256, 32, 32, 'bf16'); fromlast('small', 2, 24, 10, 10, 'bf16')

# 6. ragged 2-D transpose_add with non-power-of-two extents.
def tadd(name, tag, R, C, dt):
    body = [tensor('T0', 2, dt), tensor('T1', 2, dt), '    T2 = fd.ops.permute(T1, dims=[1, 0])',
            '    T3 = fd.ops.add(T0, T2)', f'    T4 = fd.ops.cast(T3, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f'{name}_{tag}', f'x + permute(y, [1, 0]), {R} x {C} {dt}: ragged tiles.', body, [randn((R, C), dt), randn((C, R), dt)])
tadd('tadd_ragged_bf16', 'large', 8191, 8193, 'bf16'); tadd('tadd_ragged_bf16', 'small', 250, 1000, 'bf16')
tadd('tadd_f32', 'large', 8192, 8192, 'f32'); tadd('tadd_f32', 'small', 256, 384, 'f32')
tadd('tadd_skinny_bf16', 'large', 8388608, 7, 'bf16'); tadd('tadd_skinny_bf16', 'small', 16384, 7, 'bf16')

# 7. transposed output of one row-major input.
def tout(tag, R, C, dt):
    body = [tensor('T0', 2, dt), '    T1 = fd.ops.neg(T0)', f'    T2 = fd.ops.cast(T1, dtype=DataType.{DT[dt][0]})',
            '    fd.add_output(T2, stride_order=[0, 1])']
    script(f'tout_{dt}_{tag}', f'-x written column-major (add_output stride_order [0, 1]): a transposed output.', body, [randn((R, C), dt)])
tout('large', 8192, 8192, 'f32'); tout('small', 300, 520, 'f32')

# 8. transpose with a broadcast along the inner dim and one along the outer dim.
def tbc(tag, R, C, dt):
    body = [tensor('T0', 2, dt), tensor('T1', 2, dt), tensor('T5', 1, dt), tensor('T6', 1, dt),
            '    T2 = fd.ops.permute(T1, dims=[1, 0])',
            f'    T7 = fd.ops.broadcast_in_dim(T5, shape=[{R}, {C}], broadcast_dims=[0])',
            f'    T8 = fd.ops.broadcast_in_dim(T6, shape=[{R}, {C}], broadcast_dims=[1])',
            '    T3 = fd.ops.mul(T2, T7)', '    T9 = fd.ops.add(T0, T8)', '    T10 = fd.ops.add(T3, T9)',
            f'    T4 = fd.ops.cast(T10, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f'tbcast_{dt}_{tag}', 'permute(y) * a[i] + x + b[j]: broadcasts along each dim beside a transpose.', body,
           [randn((R, C), dt), randn((C, R), dt), randn((R,), dt), randn((C,), dt)])
tbc('large', 8192, 16384, 'bf16'); tbc('small', 192, 320, 'bf16')

# 9. misaligned slices: start k, odd row stride, f32 and f16.
def slice_mis(tag, R, C, k, dt):
    body = [tensor('T0', 2, dt), f'    T1 = fd.ops.slice(T0, start_indices=[0, {k}], end_indices=[{R}, {C}], strides=[1, 1])',
            '    T2 = fd.ops.mul(T1, T1)', f'    T3 = fd.ops.cast(T2, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T3)']
    script(f'slice{k}_{dt}_{tag}', f'A slice starting at column {k} of rows of {C} {dt}: every row at another alignment.', body,
           [randn((R, C), dt)])
slice_mis('large', 8192, 8195, 3, 'f32'); slice_mis('small', 60, 259, 3, 'f32')
slice_mis('large', 16384, 8197, 5, 'f16'); slice_mis('small', 64, 261, 5, 'f16')
slice_mis('large', 16384, 8199, 7, 'bf16'); slice_mis('small', 64, 263, 7, 'bf16')

# 10. two inputs, one at a pointer one element off (as_strided offset), f32; the other aligned.
def two_mis(tag, R, C, off, dt):
    body = [tensor('T0', 2, dt), tensor('T1', 2, dt), '    T2 = fd.ops.sub(T0, T1)', '    T3 = fd.ops.mul(T2, T2)',
            f'    T4 = fd.ops.cast(T3, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f'two_mis{off}_{dt}_{tag}', f'(x - y)^2 with y at a pointer {off} elements off its 16-byte block.', body,
           [randn((R, C), dt), strided(R * C + off, dt, (R, C), (C, 1), off)])
two_mis('large', 8192, 8192, 1, 'f32'); two_mis('small', 128, 1024, 1, 'f32')
two_mis('large', 16384, 8192, 6, 'f16'); two_mis('small', 128, 1000, 6, 'f16')

# 11. permute [1, 0, 2] of a computed value (inner dim kept), f16, static sizes.
def p102(tag, A, B, C, dt):
    body = [tensor('T0', 3, dt, shape=[A, B, C]), '    T1 = fd.ops.mul(T0, T0)', f'    T2 = fd.ops.cast(T1, dtype=DataType.{DT[dt][0]})',
            '    T3 = fd.ops.permute(T2, dims=[1, 0, 2])', '    fd.add_output(T3)']
    script(f'p102_{dt}_{tag}', 'permute(x * x, [1, 0, 2]) with static sizes: the innermost dim is kept.', body, [randn((A, B, C), dt)])
p102('large', 4096, 64, 512, 'f16'); p102('small', 30, 64, 200, 'f16')

# 12. split heads: reshape (B, S, H*D) -> (B, S, H, D) of a computed value, permute [0, 2, 1, 3].
def heads(tag, B, S, H, D, dt):
    body = [tensor('T0', 3, dt), '    T1 = fd.ops.mul(T0, T0)', f'    T2 = fd.ops.cast(T1, dtype=DataType.{DT[dt][0]})',
            f'    T3 = fd.ops.reshape(T2, new_shape=[{B}, {S}, {H}, {D}])', '    T4 = fd.ops.permute(T3, dims=[0, 2, 1, 3])', '    fd.add_output(T4)']
    script(f'split_heads_{dt}_{tag}', 'reshape a computed (B, S, H*D) into heads and permute [0, 2, 1, 3] (attention).', body,
           [randn((B, S, H * D), dt)])
heads('large', 16, 2048, 32, 128, 'bf16'); heads('small', 2, 64, 4, 64, 'bf16')

# 13. merge heads: permute [0, 2, 1, 3] of computed (B, H, S, D), then reshape to (B, S, H*D).
def merge(tag, B, H, S, D, dt):
    body = [tensor('T0', 4, dt), '    T1 = fd.ops.mul(T0, T0)', f'    T2 = fd.ops.cast(T1, dtype=DataType.{DT[dt][0]})',
            '    T3 = fd.ops.permute(T2, dims=[0, 2, 1, 3])', f'    T4 = fd.ops.reshape(T3, new_shape=[{B}, {S}, {H * D}])', '    fd.add_output(T4)']
    script(f'merge_heads_{dt}_{tag}', 'permute a computed (B, H, S, D) to (B, S, H, D) and merge the heads (attention output).', body,
           [randn((B, H, S, D), dt)])
merge('large', 16, 32, 2048, 128, 'bf16'); merge('small', 2, 4, 64, 64, 'bf16')

# 14. cat of a misaligned slice and an aligned tensor along the inner dim.
def cat_mis(tag, R, C, dt):
    body = [tensor('T0', 2, dt), tensor('T1', 2, dt), f'    T2 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[{R}, {C + 1}], strides=[1, 1])',
            '    T3 = fd.ops.cat([T2, T1], dim=1)', '    T4 = fd.ops.mul(T3, T3)', f'    T5 = fd.ops.cast(T4, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T5)']
    script(f'cat_slice1_{dt}_{tag}', 'cat(x[:, 1:], y) along the inner dim: a misaligned slice beside an aligned input.', body,
           [randn((R, C + 1), dt), randn((R, C), dt)])
cat_mis('large', 8192, 8192, 'bf16'); cat_mis('small', 64, 256, 'bf16')

# 15. pad of a misaligned slice back to the row's width.
def pad_mis(tag, R, C, dt):
    body = [tensor('T0', 2, dt), f'    T1 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[{R}, {C}], strides=[1, 1])',
            '    T2 = fd.ops.pad(T1, [0, 1])', '    T3 = fd.ops.mul(T2, T2)', f'    T4 = fd.ops.cast(T3, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T4)']
    script(f'shift_pad_{dt}_{tag}', 'pad(x[:, 1:], [0, 1]): each row shifted left by one (a misaligned slice, an aligned output).', body,
           [randn((R, C), dt)])
pad_mis('large', 16384, 8192, 'bf16'); pad_mis('small', 64, 256, 'bf16')

# 16. broadcast along the inner dim of a misaligned slice (bias per row), f16.
def slice_bias(tag, R, C, dt):
    body = [tensor('T0', 2, dt), tensor('T5', 1, dt), f'    T1 = fd.ops.slice(T0, start_indices=[0, 1], end_indices=[{R}, {C}], strides=[1, 1])',
            f'    T6 = fd.ops.broadcast_in_dim(T5, shape=[{R}, {C - 1}], broadcast_dims=[0])',
            '    T2 = fd.ops.mul(T1, T6)', f'    T3 = fd.ops.cast(T2, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T3)']
    script(f'slice1_rowscale_{dt}_{tag}', 'x[:, 1:] * s[i]: a misaligned slice times a per-row scale (broadcast along the inner dim).', body,
           [randn((R, C), dt), randn((R,), dt)])
slice_bias('large', 16384, 8193, 'f16'); slice_bias('small', 64, 257, 'f16')

# 17. the last column dropped, x[:, :-1] (a causal shift's other half): rows of 8191 at a row
# stride of 8192, an output whose rows start anywhere in a 16-byte block.
def slice_end(tag, R, C, dt):
    body = [tensor('T0', 2, dt), f'    T1 = fd.ops.slice(T0, start_indices=[0, 0], end_indices=[{R}, {C - 1}], strides=[1, 1])',
            '    T2 = fd.ops.mul(T1, T1)', f'    T3 = fd.ops.cast(T2, dtype=DataType.{DT[dt][0]})', '    fd.add_output(T3)']
    script(f'slice_end_{dt}_{tag}', 'x[:, :-1] * x[:, :-1]: rows of C - 1 read at a row stride of C (the last column dropped).', body,
           [randn((R, C), dt)])
slice_end('large', 16384, 8192, 'bf16'); slice_end('small', 64, 256, 'bf16')
