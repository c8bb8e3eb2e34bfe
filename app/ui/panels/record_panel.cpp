#include "app/ui/panels/record_panel.h"

#include <imgui.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <optional>

#include "app/core/kernel_files.h"
#include "app/core/messages.h"
#include "app/core/user_dirs.h"
#include "app/record/frame_encoder.h"
#include "app/record/recorder.h"
#include "app/ui/overlay/record_render.h"
#include "app/ui/panel_text.h"
#include "app/ui/ui_state.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"
#include "gpu/user_kernel.h"
#include "render/io/atomic_file.h"

namespace kc {

namespace {

constexpr std::array<const char*, 4> kFormatNames{"GIF", "MP4", "WebM", "PNG sequence"};
constexpr std::array<const char*, 4> kExtensions{".gif", ".mp4", ".webm", "/"};

std::string path_of(const RecordPanelState& r) { return std::string(r.path.data()); }

// The path with the format's extension in place of its own (a folder for a PNG sequence).
std::string with_format(std::string path, int format) {
    while (!path.empty() && path.back() == '/') path.pop_back();
    const std::filesystem::path p(path);
    if (p.has_extension()) path.resize(path.size() - p.extension().string().size());
    return path.empty() ? path : path + kExtensions[format];
}

// "kcanvas-<op>-YYYYmmdd-HHMMSS.gif" in the working directory.
std::string default_name(const UiState& s, int format) {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const auto name = fmt::format("kcanvas-{}-{}{}", op_registry()[s.job.op].name, stamp, kExtensions[format]);
    return (pictures_dir() / name).string(); // shown with its full path when written
}

// The Record section's size, or the canvas' while the section has set none (a script's `record`
// may start one before the section is ever drawn).
std::array<int, 2> size_of(const UiState& s) {
    const RecordPanelState& r = s.record;
    if (r.size[0] == 0 && r.size[1] == 0) return {s.job.params.width, s.job.params.height};
    return r.size;
}

int frames_of(const RecordPanelState& r) {
    return r.by_seconds ? std::max(1, int(std::lround(r.seconds * r.fps))) : r.frames;
}

// Step mode's pace in the recording: by default the whole launch, block 0 to the last, as
// `kcanvas record --step` paints it; or on from what the window shows, at its pace.
void step_pace_choice(UiState& s) {
    RecordPanelState& r = s.record;
    ui::TextUnformatted("Step mode in the recording:");
    if (ui::RadioButton("every block by 90 % of it", !r.window_pace)) r.window_pace = false;
    const std::string pace = fmt::format("on from block {} at {:.1f} blocks / s###at the window's pace",
                                         (long long)(s.teach.step_blocks + 1e-9), s.teach.blocks_per_second);
    if (ui::RadioButton(pace.c_str(), r.window_pace)) r.window_pace = true;
}

} // namespace

double tick_clock(UiState& s, std::chrono::steady_clock::time_point& last) {
    const auto now = std::chrono::steady_clock::now();
    s.clock.advance(std::chrono::duration<double>(now - last).count());
    last = now;
    return s.clock.seconds;
}

void time_section(UiState& s) {
    TimeClock& c = s.clock;
    if (ui::Button(c.paused ? "Play" : "Pause time")) c.paused = !c.paused;
    ImGui::SameLine();
    if (ui::Button("< Frame")) c.step_frames(-1);
    ImGui::SameLine();
    if (ui::Button("Frame >")) c.step_frames(+1);
    ImGui::SameLine();
    if (ui::Button("Rewind")) c.set(c.loop ? c.loop_from : 0.0);
    // The slider reaches past the latest t, in whole tens of seconds, or spans the loop: scrubbing
    // back keeps its range (a range that shrank under the mouse would run the drag down to 0).
    const double reach = std::max(c.seconds, c.furthest);
    const float top = c.loop ? float(c.loop_to) : float(std::max(10.0, std::ceil((reach + 1) / 10) * 10));
    float t = float(c.seconds);
    if (ui::SliderFloat("Time (s)", &t, c.loop ? float(c.loop_from) : 0.0f, top, "%.3f")) c.set(t);
    float speed = float(c.speed);
    if (ui::SliderFloat("Speed", &speed, float(TimeClock::kMinSpeed), float(TimeClock::kMaxSpeed), "%.2fx",
                        ImGuiSliderFlags_Logarithmic))
        c.speed = std::clamp(double(speed), TimeClock::kMinSpeed, TimeClock::kMaxSpeed);
    ui::Checkbox("Loop", &c.loop);
    if (c.loop) {
        float range[2] = {float(c.loop_from), float(c.loop_to)};
        if (ui::SliderFloat2("Loop from, to (s)", range, 0.0f, 120.0f, "%.2f")) {
            c.loop_from = std::min(range[0], range[1]), c.loop_to = std::max(range[0], range[1]);
            c.set(c.seconds);
        }
    }
    wrapped_disabled("t is the user kernel's time and step mode's clock; a recording paints frame n at "
                     "t = start + n x speed / fps, never by the wall clock.");
}

void record_section(UiState& s, Requests& requests) {
    RecordPanelState& r = s.record;
    if (r.size[0] == 0) r.size = {s.job.params.width, s.job.params.height};
    if (ui::RadioButton("Length in frames", !r.by_seconds)) r.by_seconds = false;
    ImGui::SameLine();
    if (ui::RadioButton("in seconds", r.by_seconds)) r.by_seconds = true;
    if (r.by_seconds)
        ui::SliderFloat("Length (s)", &r.seconds, 0.1f, 120.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
    else
        ui::InputIntOnCommit("Frames##record", &r.frames);
    r.frames = std::clamp(r.frames, 1, 100000);
    ui::InputIntOnCommit("FPS", &r.fps);
    r.fps = std::clamp(r.fps, 1, r.format == 0 ? 50 : 240);
    ui::InputInt2("Size (W x H)", r.size.data(), ImGuiInputTextFlags_EnterReturnsTrue);
    if (ui::SmallButton("Use the canvas size")) r.size = {s.job.params.width, s.job.params.height};
    if (ui::BeginCombo("Format", kFormatNames[r.format])) {
        for (int i = 0; i < int(kFormatNames.size()); ++i)
            if (ui::Selectable(kFormatNames[i], i == r.format)) {
                r.format = i;
                const std::string path = with_format(path_of(r), i);
                std::snprintf(r.path.data(), r.path.size(), "%s", path.c_str());
            }
        ImGui::EndCombo();
    }
    if (s.teach.stepping) step_pace_choice(s);
    ui::InputText("Output file", r.path.data(), r.path.size());
    if (const auto f = record_format_of(path_of(r))) r.format = int(*f);
    if (needs_ffmpeg(RecordFormat(r.format)) && !find_ffmpeg()) wrapped_text(kWarnColour, kNoFfmpeg);
    if (r.running) {
        ImGui::ProgressBar(r.progress, ImVec2(-1, 0));
        if (ui::Button("Cancel recording")) requests.push(request::CancelRecording{});
    } else if (ui::Button("Start recording")) {
        requests.push(request::StartRecording{});
    }
    wrapped_disabled(fmt::format("{} frames of {}x{} at {} fps; the overlays shown on the canvas (outlines, "
                                 "tint, the legend, a caption with the formula) are in every frame.",
                                 frames_of(r), r.size[0], r.size[1], r.fps));
}

// The window's recording: a painter, canvas and overlay context of its own, so the window's own
// canvas keeps painting and showing while it records.
class WindowRecording {
public:
    // `ab`: the split to record (side B gets a painter and renderer of its own), or null.
    WindowRecording(const RecordPlan& plan, std::unique_ptr<FrameEncoder> encoder, Backend backend,
                    const SourceImages& sources, const std::string& kernel_source, KernelMode mode, std::string path,
                    const AbSplit* ab)
        : path(std::move(path)), painter_(backend), renderer_(painter_, plan.job.params.width, plan.job.params.height),
          sources_(sources), recorder_(plan, std::move(encoder), [this](const RecordFrame& f, std::vector<Pixel>& out) {
              return render(f, out);
          }) {
        sources_.fit(plan.job.params.width, plan.job.params.height);
        compile(painter_, plan.job.op, kernel_source, mode, "your kernel");
        if (!ab) return;
        ab_ = *ab;
        painter_b_ = std::make_unique<FramePainter>(backend);
        renderer_b_ = std::make_unique<RecordRenderer>(*painter_b_, plan.job.params.width, plan.job.params.height);
        compile(*painter_b_, ab->b.op,
                ab->b_kernel_source.empty() ? std::string(default_starter().source) : ab->b_kernel_source,
                ab->b_kernel_mode, "side B's kernel");
    }
    Recorder& recorder() { return recorder_; }
    const std::string path;

private:
    static void compile(FramePainter& p, int op, const std::string& source, KernelMode mode, const char* whose) {
        if (!op_registry()[op].user_code) return;
        const KernelCompile k = p.compile_user_kernel(source, "kernel.cu", mode);
        if (!k.ok) throw std::runtime_error(std::string(whose) + " does not compile: " + k.log);
    }
    std::optional<std::string> render(const RecordFrame& f, std::vector<Pixel>& out) {
        if (!ab_) return renderer_.render(f, recorder_.plan().overlays, &sources_, out);
        const LayersRender a = [this](const RecordFrame& frame, FrameLayers& layers) {
            return renderer_.render_layers(frame, recorder_.plan().overlays, &sources_, layers);
        };
        const LayersRender b = [this](const RecordFrame& frame, FrameLayers& layers) {
            return renderer_b_->render_layers(frame, side_b_overlays(recorder_.plan().overlays, ab_->layout), &sources_,
                                              layers);
        };
        return render_split_frame(*ab_, f, a, b, out);
    }

    FramePainter painter_;
    RecordRenderer renderer_;
    SourceImages sources_;
    Recorder recorder_;
    std::optional<AbSplit> ab_;
    std::unique_ptr<FramePainter> painter_b_;
    std::unique_ptr<RecordRenderer> renderer_b_; // after its painter: it goes first
};

WindowRecorder::WindowRecorder() = default;
WindowRecorder::~WindowRecorder() = default;

namespace {

// The plan of what the window shows now, at the Record section's length, rate and size.
RecordPlan plan_from_window(const UiState& s) {
    const RecordPanelState& r = s.record;
    RecordPlan plan;
    plan.job = s.job;
    const auto [width, height] = size_of(s);
    plan.job.params.width = width, plan.job.params.height = height;
    plan.job.max_blocks = -1;
    plan.frames = frames_of(r);
    plan.fps = r.fps;
    plan.clock = s.clock;
    plan.clock.paused = false;
    plan.start = s.clock.loop ? s.clock.loop_from : 0.0;
    const OpInfo& op = op_registry()[s.job.op];
    plan.step = s.teach.stepping && !op.custom && !op.user_code;
    if (plan.step && r.window_pace) { // else the plan's default: every block by 90 % of the recording
        plan.blocks_per_second = s.teach.blocks_per_second;
        plan.first_blocks = std::floor(s.teach.step_blocks + 1e-9);
        plan.start = s.clock.seconds;
    }
    plan.overlays.outlines = s.teach.block_outlines;
    plan.overlays.tint = s.teach.flag_repeats;
    return plan;
}

std::optional<std::string> start_recording(UiState& s, const FramePainter& painter, WindowRecorder& w) {
    RecordPanelState& r = s.record;
    const std::string path = path_of(r).empty() ? default_name(s, r.format) : path_of(r);
    const auto [width, height] = size_of(s);
    if (auto e = canvas_size_error(width, height)) return "recording size: " + *e;
    const RecordPlan plan = plan_from_window(s);
    // The split records as it shows: A and B side by side make a frame twice as wide.
    const int frame_width = s.ab.on && s.ab.split.layout == AbLayout::SideBySide ? 2 * width : width;
    if (auto e = record_output_error(path, frame_width, height, r.fps)) return e;
    if (auto e = read_only_error(path)) return *e + ": make it writable, or choose another name";
    if (auto e = plan_error(plan)) return e;
    auto opened = open_encoder({path, frame_width, height, double(r.fps), plan.frames});
    if (auto* e = std::get_if<std::string>(&opened)) return *e;
    w.recording = std::make_unique<WindowRecording>(plan, std::move(std::get<std::unique_ptr<FrameEncoder>>(opened)),
                                                    painter.backend(), s.sources, s.kernel.source, s.kernel.mode, path,
                                                    s.ab.on ? &s.ab.split : nullptr);
    return std::nullopt;
}

} // namespace

void WindowRecorder::start(UiState& s, Messages& messages, const FramePainter& painter) {
    if (recording) return;
    try {
        if (auto e = start_recording(s, painter, *this)) messages.error(Topic::Status, "cannot record: " + *e);
    } catch (const std::exception& e) {
        recording.reset();
        messages.error(Topic::Status, std::string("cannot record: ") + e.what());
    }
}

void WindowRecorder::cancel() {
    if (recording) recording->recorder().cancel();
}

bool WindowRecorder::running() const { return recording && recording->recorder().running(); }

void recording_quit_dialog(UiState& s, Requests& requests) {
    RecordPanelState& r = s.record;
    const char* title = "Recording in progress";
    if (r.quit_dialog && !r.running) { // it ended while the dialog was open: nothing to ask any more
        r.quit_dialog = false;
        requests.push(request::Quit{/*ask_first=*/true});
    }
    if (r.quit_dialog) ImGui::OpenPopup(title);
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 40.0f, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    if (!r.quit_dialog) { // answered, or Esc (the frame loop's key events)
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    ui::TextWrapped("A recording to %s is running (%d %% done). Quitting now stops it, and nothing of it is "
                    "written.",
                    r.running_path.c_str(), int(r.progress * 100));
    if (ui::Button("Finish recording, then quit")) r.quit_when_done = true, r.quit_dialog = false;
    ImGui::SameLine();
    if (ui::Button("Stop recording and quit")) {
        requests.push(request::CancelRecording{});
        requests.push(request::Quit{/*ask_first=*/true}); // the kernel editor's unsaved edits are still asked about
        r.quit_dialog = false;
    }
    ImGui::SameLine();
    if (ui::Button("Cancel")) r.quit_dialog = false;
    ImGui::EndPopup();
}

void WindowRecorder::advance(UiState& s, Messages& messages, std::chrono::milliseconds budget) {
    RecordPanelState& r = s.record;
    r.running = recording != nullptr;
    if (!recording) return;
    Recorder& rec = recording->recorder();
    const std::string& path = recording->path;
    r.running_path = path;
    if (rec.running()) rec.step(budget);
    r.progress = rec.work_total() ? float(rec.work_done()) / float(rec.work_total()) : 0.0f;
    if (rec.running()) {
        messages.info(Topic::Status, fmt::format("recording {}: {}{}", path, rec.progress_text(),
                                                 r.quit_when_done ? "; kcanvas quits when it is done" : ""));
        return;
    }
    std::error_code ec;
    if (rec.succeeded())
        messages.info(Topic::Status, fmt::format("recorded {} frames to {}", rec.plan().frames,
                                                 std::filesystem::absolute(path, ec).string()));
    else
        messages.warning(Topic::Status, fmt::format("recording {} stopped ({}); nothing was written", path,
                                                    rec.error().value_or("?")));
    recording.reset();
    r.running = false;
}

} // namespace kc
