#pragma once
// When the op's own kernel may write the displayed texture (Present::Direct): a pure function of
// the frame, so the painter, the panel and the tests ask the same question the same way.
#include <optional>
#include <string_view>

#include "gpu/paint_job.h"
#include "gpu/registry.h"

namespace kc {

// nullopt when nothing this frame needs the linear buffer, so the kernel can write the texture
// through a surface and no copy follows; else why the frame goes through the buffer and a copy.
// Whatever reads the picture afterwards (saving, recording, the inspector's colour) reads the
// texture and does not count; `writer_record` (the inspector's per-pixel record of who wrote
// what) is written by the teaching kernel beside the buffer, so it does.
std::optional<std::string_view> direct_write_refusal(const OpInfo& op, const PaintJob& job,
                                                     const ResolvedLaunch& resolved, bool writer_record);

} // namespace kc
