#pragma once
// Small helpers shared by the custom operations' kernels (ops/*.cu).
#include "../cuda_check.h"
#include "../cuda_ops.h"

namespace kc {

inline dim3 to_dim3(const Dim3& d) { return dim3(unsigned(d.x), unsigned(d.y), unsigned(d.z)); }

// The block and grid of an op's own launch (Op::own_launch), as the kernels launch it.
struct OwnDims {
    dim3 grid, block;
};
inline OwnDims own_dims(const LaunchConfig& l, const OpParams& p) {
    return {to_dim3(resolved_grid(l, p.width, p.height)), to_dim3(l.block)};
}

inline void check_launch(cudaStream_t stream) {
    KC_CUDA_CHECK_THROW(cudaGetLastError());
#ifdef KC_DEBUG_SYNC
    KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
#else
    (void)stream;
#endif
}

} // namespace kc
