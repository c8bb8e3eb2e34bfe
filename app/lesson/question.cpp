#include "app/lesson/question.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "app/core/json_file.h"
#include "gpu/kernel_check.h"
#include "gpu/launch_figures.h"
#include "gpu/paint_job.h"
#include "gpu/thread_body.h"
#include "gpu/thread_of_pixel.h"
#include "render/io/quoted.h"

namespace kc {

using nlohmann::json;

std::string question_kinds() {
    std::string names;
    for (std::string_view n : kQuestionKindNames) names += (names.empty() ? "" : ", ") + std::string(n);
    return names;
}

namespace {

using Refusal = std::optional<std::string>;

// [x, y] of whole numbers from 0 to hi.
Refusal read_pair(const json& q, const char* key, int hi, int& x, int& y) {
    const auto it = q.find(key);
    if (it == q.end()) return fmt::format("question.{}: missing", key);
    const auto whole = [hi](const json& v) { return v.is_number_integer() && v.get<long long>() >= 0 && v <= hi; };
    if (!it->is_array() || it->size() != 2 || !whole((*it)[0]) || !whole((*it)[1]))
        return fmt::format("question.{}: expected [x, y] of whole numbers from 0 to {}, got {}", key, hi,
                           json_excerpt(*it));
    x = (*it)[0].get<int>(), y = (*it)[1].get<int>();
    return std::nullopt;
}

Refusal read_choice(const json& q, const char* key, const Preset& step, Question::Choice& out) {
    const auto it = q.find(key);
    if (it == q.end() || !it->is_object())
        return fmt::format("question.{}: expected {{\"label\": ..., \"preset\": ...}}", key);
    const auto label = it->find("label");
    if (label == it->end() || !label->is_string() || label->get<std::string>().empty())
        return fmt::format("question.{}.label: expected a short text", key);
    out.label = label->get<std::string>();
    out.preset = step;
    std::vector<std::string> warnings;
    if (const auto p = it->find("preset"); p != it->end())
        if (auto e = apply_partial_preset(*p, out.preset, warnings))
            return fmt::format("question.{}.preset.{}", key, *e);
    if (!warnings.empty()) return fmt::format("question.{}.preset.{}", key, warnings.front());
    return std::nullopt;
}

Refusal read_gpu(const json& q, GpuShape& gpu) {
    const auto it = q.find("gpu");
    if (it == q.end()) return std::nullopt;
    const auto number = [&](const char* key, int lo, int hi, int& v) -> Refusal {
        const auto f = it->find(key);
        if (f == it->end()) return std::nullopt;
        if (!f->is_number_integer() || *f < lo || *f > hi)
            return fmt::format("question.gpu.{}: expected a whole number from {} to {}, got {}", key, lo, hi,
                               json_excerpt(*f));
        v = f->get<int>();
        return std::nullopt;
    };
    if (!it->is_object())
        return "question.gpu: expected {\"name\", \"sms\", \"max_threads_per_sm\", \"max_blocks_per_sm\"}";
    if (const auto n = it->find("name"); n != it->end() && n->is_string()) gpu.name = n->get<std::string>();
    for (auto [key, lo, hi, v] : {std::tuple{"sms", 1, 1024, &gpu.sms},
                                  {"max_threads_per_sm", 32, 4096, &gpu.max_threads_per_sm},
                                  {"max_blocks_per_sm", 1, 64, &gpu.max_blocks_per_sm}})
        if (auto e = number(key, lo, hi, *v)) return e;
    return std::nullopt;
}

} // namespace

std::optional<std::string> parse_question(const json& j, const Preset& step, Question& out) {
    if (!j.is_object()) return "question: expected an object with a \"kind\"";
    const auto kind = j.find("kind");
    if (kind == j.end() || !kind->is_string()) return "question.kind: missing; one of " + question_kinds();
    const auto* found =
        std::find(std::begin(kQuestionKindNames), std::end(kQuestionKindNames), kind->get<std::string>());
    if (found == std::end(kQuestionKindNames))
        return fmt::format("question.kind: {} is not one of {}", kc::quoted(kind->get<std::string>(), 40),
                           question_kinds());
    Question q;
    q.kind = static_cast<QuestionKind>(found - std::begin(kQuestionKindNames));
    Refusal e;
    if (q.kind == QuestionKind::PixelOfThread || q.kind == QuestionKind::OutOfRangeIndex) {
        e = read_pair(j, "block", 65535, q.block_idx.x, q.block_idx.y);
        if (!e) e = read_pair(j, "thread", 1023, q.thread_idx.x, q.thread_idx.y);
    } else if (q.kind == QuestionKind::BlockOfPixel) {
        e = read_pair(j, "pixel", kMaxCanvasSide - 1, q.pixel.first, q.pixel.second);
    } else if (q.kind == QuestionKind::Waves || q.kind == QuestionKind::TailBlocks) {
        e = read_gpu(j, q.gpu);
    } else if (q.kind == QuestionKind::Faster) {
        e = read_choice(j, "a", step, q.a);
        if (!e) e = read_choice(j, "b", step, q.b);
    }
    if (e) return e;
    out = std::move(q);
    return std::nullopt;
}

std::string question_text(const Question& q) {
    switch (q.kind) {
    case QuestionKind::UncoveredPixels:
        return "How many pixels does no thread write (they stay hatched)?";
    case QuestionKind::IdleThreads:
        return "How many threads return at the bounds check without painting a pixel?";
    case QuestionKind::PixelOfThread:
        return fmt::format("Click the pixel that thread ({}, {}) of block ({}, {}) paints.", q.thread_idx.x,
                           q.thread_idx.y, q.block_idx.x, q.block_idx.y);
    case QuestionKind::BlockOfPixel:
        return fmt::format("Which block paints pixel ({}, {})? Type its blockIdx x, y.", q.pixel.first, q.pixel.second);
    case QuestionKind::WarpSectors:
        return "How many 32-byte sectors does warp 0's store touch?";
    case QuestionKind::WarpLines:
        return "How many 128-byte cache lines does warp 0's store touch?";
    case QuestionKind::Waves:
        return fmt::format("On {} ({} SMs), in how many waves do this grid's blocks run?", q.gpu.name, q.gpu.sms);
    case QuestionKind::TailBlocks:
        return fmt::format("On {} ({} SMs), how many blocks run in the last wave (0 if it is full)?", q.gpu.name,
                           q.gpu.sms);
    case QuestionKind::Faster:
        return fmt::format("Which is faster: A ({}) or B ({})? Type A or B.", q.a.label, q.b.label);
    case QuestionKind::OutOfRangeIndex:
        return fmt::format("Without a bounds check, which index of out does thread ({}, {}) of block ({}, {}) write? "
                           "Type i of out[i].",
                           q.thread_idx.x, q.thread_idx.y, q.block_idx.x, q.block_idx.y);
    }
    return {};
}

namespace {

// The launch a step's picture runs, checked against the limits every CUDA GPU shares.
std::variant<ResolvedLaunch, std::string> launch_of(const Preset& p) {
    ResolvedLaunch r = resolve_launch(p.job, universal_limits());
    if (r.refusal) return "the launch is refused: " + *r.refusal;
    return r;
}

std::string launch_words(const ResolvedLaunch& r) {
    return fmt::format("block {}x{}, grid {}x{}, mapping {}", r.launch.block.x, r.launch.block.y, r.grid.x, r.grid.y,
                       mapping_name(r.launch.mapping));
}

// The first pixel thread `t` of block `b` paints (before the bounds check), by the forward
// formulas of gpu/thread_body.h; nullopt where that pixel is outside the canvas.
std::optional<std::pair<int, int>> pixel_of(const ResolvedLaunch& r, int w, int h, Dim3 b, Dim3 t) {
    const LaunchConfig& l = r.launch;
    const ThreadCoords c{unsigned(b.x),       unsigned(b.y),       0,
                         unsigned(t.x),       unsigned(t.y),       0,
                         unsigned(l.block.x), unsigned(l.block.y), unsigned(l.block.z),
                         unsigned(r.grid.x),  unsigned(r.grid.y),  unsigned(r.grid.z)};
    long long x, y;
    if (is_tiled(l.mapping)) {
        const PixelXY p = tiled_pixel(l.mapping, c); // pixels and rows a thread multiply the grid's axes
        const Dim3 step = grid_to_picture(l.mapping, {l.pixels_per_thread, l.rows_per_thread, 1});
        x = 1LL * p.x * step.x, y = 1LL * p.y * step.y;
    } else {
        const unsigned long long i = linear_thread_index(c);
        x = static_cast<long long>(i % unsigned(w)), y = static_cast<long long>(i / unsigned(w));
    }
    if (x >= w || y >= h) return std::nullopt;
    return std::pair{int(x), int(y)};
}

Answer answer_of(std::string text, std::string why, std::vector<long long> values) {
    Answer a;
    a.text = std::move(text), a.why = std::move(why), a.values = std::move(values);
    return a;
}

Answer number_answer(long long v, std::string why) { return answer_of(fmt::format("{}", v), std::move(why), {v}); }

std::variant<Answer, std::string> answer_pixel_of_thread(const Question& q, const Preset& p, const ResolvedLaunch& r) {
    const int w = p.job.params.width, h = p.job.params.height;
    const Dim3& b = q.block_idx;
    const Dim3& t = q.thread_idx;
    if (b.x >= r.grid.x || b.y >= r.grid.y)
        return fmt::format("block ({}, {}) is outside the grid {}x{}", b.x, b.y, r.grid.x, r.grid.y);
    if (t.x >= r.launch.block.x || t.y >= r.launch.block.y)
        return fmt::format("thread ({}, {}) is outside the block {}x{}", t.x, t.y, r.launch.block.x, r.launch.block.y);
    const auto px = pixel_of(r, w, h, b, t);
    if (!px) return fmt::format("thread ({}, {}) of block ({}, {}) paints no pixel", t.x, t.y, b.x, b.y);
    // The inverse mapping must name the same thread: the two directions of one model agree.
    const PixelWriter back = thread_of_pixel(r.launch, r.grid, w, h, px->first, px->second);
    if (!back.covered || back.block_idx.x != b.x || back.block_idx.y != b.y || back.thread_idx.x != t.x ||
        back.thread_idx.y != t.y)
        return fmt::format("the inverse mapping of pixel ({}, {}) does not name thread ({}, {}) of block ({}, {})",
                           px->first, px->second, t.x, t.y, b.x, b.y);
    Answer a = answer_of(fmt::format("pixel ({}, {})", px->first, px->second),
                         fmt::format("{}: {}", launch_words(r), mapping_formula(r.launch, r.grid, w, h)),
                         {px->first, px->second});
    a.mark = px;
    return a;
}

std::variant<Answer, std::string> answer_block_of_pixel(const Question& q, const Preset& p, const ResolvedLaunch& r) {
    const int w = p.job.params.width, h = p.job.params.height;
    const auto [x, y] = q.pixel;
    if (x >= w || y >= h) return fmt::format("pixel ({}, {}) is outside the {}x{} canvas", x, y, w, h);
    const PixelWriter pw = thread_of_pixel(r.launch, r.grid, w, h, x, y);
    if (!pw.covered) return fmt::format("no thread paints pixel ({}, {}) with {}", x, y, launch_words(r));
    Answer a = answer_of(fmt::format("block ({}, {})", pw.block_idx.x, pw.block_idx.y),
                         fmt::format("thread ({}, {}) of block ({}, {}) paints it, thread {} of the launch: {}",
                                     pw.thread_idx.x, pw.thread_idx.y, pw.block_idx.x, pw.block_idx.y, pw.global_thread,
                                     mapping_formula(r.launch, r.grid, w, h)),
                         {pw.block_idx.x, pw.block_idx.y});
    a.mark = q.pixel;
    return a;
}

// The kernel's own 2D index, i = y * width + x with x = blockIdx.x*blockDim.x + threadIdx.x (and
// y likewise), for a thread whose (x, y) lies outside the canvas; the reveal names the write as
// checked mode names it when the kernel runs.
std::variant<Answer, std::string> answer_out_of_range_index(const Question& q, const Preset& p,
                                                            const ResolvedLaunch& r) {
    const int w = p.job.params.width, h = p.job.params.height;
    const Dim3& b = q.block_idx;
    const Dim3& t = q.thread_idx;
    if (r.launch.mapping != Mapping::TwoD)
        return "out_of_range_index asks about the 2d mapping (x = blockIdx.x*blockDim.x + threadIdx.x): set "
               "launch.mapping to 2d";
    if (b.x >= r.grid.x || b.y >= r.grid.y)
        return fmt::format("block ({}, {}) is outside the grid {}x{}", b.x, b.y, r.grid.x, r.grid.y);
    if (t.x >= r.launch.block.x || t.y >= r.launch.block.y)
        return fmt::format("thread ({}, {}) is outside the block {}x{}", t.x, t.y, r.launch.block.x, r.launch.block.y);
    const long long x = 1LL * b.x * r.launch.block.x + t.x, y = 1LL * b.y * r.launch.block.y + t.y;
    if (x < w && y < h)
        return fmt::format("thread ({}, {}) of block ({}, {}) writes pixel ({}, {}), inside the canvas", t.x, t.y, b.x,
                           b.y, x, y);
    KernelViolations v;
    v.count = 1, v.width = w, v.height = h;
    KcViolation& f = v.first;
    f.count = 1, f.claimed = 1, f.write = 1, f.image = 0, f.index = y * w + x, f.x = f.y = KC_NO_XY;
    f.width = w, f.height = h;
    const Dim3 dims[4] = {b, t, r.launch.block, r.grid};
    unsigned* fields[4] = {f.block, f.thread, f.block_dim, f.grid_dim};
    for (int k = 0; k < 4; ++k)
        fields[k][0] = unsigned(dims[k].x), fields[k][1] = unsigned(dims[k].y), fields[k][2] = unsigned(dims[k].z);
    return number_answer(f.index, fmt::format("x = {}, y = {}, i = y*width + x = {}: {}", x, y, f.index, describe(v)));
}

Answer answer_warp(const Question& q, const Preset& p, const ResolvedLaunch& r) {
    const WarpStores s = first_warp_stores(r.launch, p.job.params.width, p.job.params.height);
    const bool sectors = q.kind == QuestionKind::WarpSectors;
    const std::string why =
        fmt::format("{} lanes store {} bytes each into {} row{}: {} cache line{} of 128 bytes, {} sector{} of 32 bytes "
                    "(the same bytes side by side need {} line{})",
                    s.lanes, 4 * r.launch.pixels_per_thread, s.rows, s.rows == 1 ? "" : "s", s.cache_lines,
                    s.cache_lines == 1 ? "" : "s", s.sectors, s.sectors == 1 ? "" : "s", s.ideal_lines,
                    s.ideal_lines == 1 ? "" : "s");
    return number_answer(sectors ? s.sectors : s.cache_lines, why);
}

Answer answer_waves(const Question& q, const ResolvedLaunch& r) {
    const GpuShape& g = q.gpu;
    const WarpFigures w = warp_figures(r.launch.block);
    const int slots = int(w.warps_per_block * 32);
    const int per_sm = std::max(0, std::min(g.max_blocks_per_sm, slots > 0 ? g.max_threads_per_sm / slots : 0));
    const OccupancyFigures o = occupancy_figures(r.launch.block, r.grid, per_sm, g.sms, g.max_threads_per_sm);
    const std::string why = fmt::format(
        "{} threads a block take {} warps; {} holds {} block{} an SM by threads (at most {}; registers and shared "
        "memory aside), {} SMs: {} blocks a wave. {} blocks = {} full wave{} + a tail of {} ({:.0f} % full)",
        w.threads_per_block, w.warps_per_block, g.name, per_sm, per_sm == 1 ? "" : "s", g.max_blocks_per_sm, g.sms,
        o.blocks_per_wave, o.blocks, o.full_waves, o.full_waves == 1 ? "" : "s", o.tail_blocks, 100 * o.tail_fill());
    return number_answer(q.kind == QuestionKind::Waves ? o.waves() : o.tail_blocks, why);
}

std::variant<Answer, std::string> answer_faster(const Question& q, const KernelTimer& timer) {
    for (const Question::Choice* c : {&q.a, &q.b})
        if (auto r = resolve_launch(c->preset.job, universal_limits()); r.refusal)
            return fmt::format("{}: the launch is refused: {}", c->label, *r.refusal);
    const auto lines = [](const Preset& p) {
        const ResolvedLaunch r = resolve_launch(p.job, universal_limits());
        return first_warp_stores(r.launch, p.job.params.width, p.job.params.height).cache_lines;
    };
    const int la = lines(q.a.preset), lb = lines(q.b.preset);
    const std::string model =
        la == lb ? fmt::format("warp 0's store touches {} cache line{} in both", la, la == 1 ? "" : "s")
                 : fmt::format("warp 0's store touches {} cache line{} in A, {} in B", la, la == 1 ? "" : "s", lb);
    const auto ta = timer ? timer(q.a.preset) : std::nullopt;
    const auto tb = ta && timer ? timer(q.b.preset) : std::nullopt;
    if (!ta || !tb) {
        Answer a = answer_of("timed only on a GPU",
                             "The CPU backend's times say nothing about a GPU, so this question is skipped here. On a "
                             "GPU, kcanvas times A and B with CUDA events; " +
                                 model + ".",
                             {});
        a.skipped = true;
        return a;
    }
    const bool a_first = *ta <= *tb;
    Answer a = answer_of(fmt::format("{} ({})", a_first ? 'A' : 'B', a_first ? q.a.label : q.b.label),
                         fmt::format("median kernel time: A {:.1f} us, B {:.1f} us ({:.2f}x); {}", *ta, *tb,
                                     std::max(*ta, *tb) / std::max(1e-9, std::min(*ta, *tb)), model),
                         {});
    a.letter = a_first ? 'A' : 'B';
    return a;
}

} // namespace

std::variant<Answer, std::string> answer_question(const Question& q, const Preset& step, const KernelTimer& timer) {
    if (q.kind == QuestionKind::Faster) return answer_faster(q, timer);
    auto launch = launch_of(step);
    if (const auto* e = std::get_if<std::string>(&launch)) return *e;
    const ResolvedLaunch& r = std::get<ResolvedLaunch>(launch);
    const Coverage& c = r.coverage;
    switch (q.kind) {
    case QuestionKind::UncoveredPixels:
        return number_answer(c.pixels - c.covered_pixels,
                             fmt::format("{}: {} threads for {} pixels; {} pixels are written", launch_words(r),
                                         c.threads, c.pixels, c.covered_pixels));
    case QuestionKind::IdleThreads:
        return number_answer(c.idle_threads,
                             fmt::format("{}: {} threads for {} pixels; {} threads own a pixel", launch_words(r),
                                         c.threads, c.pixels, c.threads - c.idle_threads));
    case QuestionKind::PixelOfThread:
        return answer_pixel_of_thread(q, step, r);
    case QuestionKind::BlockOfPixel:
        return answer_block_of_pixel(q, step, r);
    case QuestionKind::WarpSectors:
    case QuestionKind::WarpLines:
        return answer_warp(q, step, r);
    case QuestionKind::Waves:
    case QuestionKind::TailBlocks:
        return answer_waves(q, r);
    case QuestionKind::OutOfRangeIndex:
        return answer_out_of_range_index(q, step, r);
    case QuestionKind::Faster:
        break;
    }
    return std::string("unknown question kind");
}

bool reply_matches(const Answer& a, std::string_view reply) {
    if (a.skipped) return true;
    if (a.letter) {
        const auto at = reply.find_first_not_of(" \t");
        return at != std::string_view::npos && at == reply.find_last_not_of(" \t") &&
               std::toupper(static_cast<unsigned char>(reply[at])) == a.letter;
    }
    std::vector<long long> numbers;
    for (std::size_t i = 0; i < reply.size();) {
        if (!std::isdigit(static_cast<unsigned char>(reply[i]))) {
            ++i;
            continue;
        }
        long long v = 0;
        for (; i < reply.size() && std::isdigit(static_cast<unsigned char>(reply[i])) && v < (1LL << 50); ++i)
            v = v * 10 + (reply[i] - '0');
        numbers.push_back(v);
    }
    return numbers == a.values;
}

bool click_matches(const Question& q, const Preset& step, int x, int y) {
    if (q.kind != QuestionKind::PixelOfThread) return false;
    const ResolvedLaunch r = resolve_launch(step.job, universal_limits());
    const int w = step.job.params.width, h = step.job.params.height;
    if (r.refusal || x < 0 || y < 0 || x >= w || y >= h) return false;
    const PixelWriter pw = thread_of_pixel(r.launch, r.grid, w, h, x, y);
    return pw.covered && pw.block_idx.x == q.block_idx.x && pw.block_idx.y == q.block_idx.y &&
           pw.thread_idx.x == q.thread_idx.x && pw.thread_idx.y == q.thread_idx.y;
}

} // namespace kc
