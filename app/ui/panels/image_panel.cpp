#include "app/ui/panels/image_panel.h"

#include <imgui.h>

#include <fmt/format.h>
#include <string>
#include <vector>

#include "app/core/data_dir.h"
#include "app/ui/panel_text.h"
#include "app/ui/ui_state.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"

namespace kc {

namespace fs = std::filesystem;

namespace {

constexpr const char* kBrowserTitle = "Open an image";

char slot_name(int slot) { return slot == 0 ? 'A' : 'B'; }

// The shipped pictures (the data dir's images/), looked up once.
const std::vector<fs::path>& samples() {
    static const std::vector<fs::path> found = [] {
        std::vector<fs::path> images;
        for (const fs::path& p : shipped_files("images"))
            if (has_image_extension(p.filename().string())) images.push_back(p);
        return images;
    }();
    return found;
}

// Where a chooser opens: the folder of the path in the field when there is one, else the current folder.
fs::path start_folder(const std::string& field) {
    std::error_code ec;
    const fs::path given(field);
    if (!field.empty() && fs::is_directory(given, ec)) return fs::absolute(given, ec);
    if (given.has_parent_path() && fs::is_directory(given.parent_path(), ec))
        return fs::absolute(given.parent_path(), ec);
    return fs::current_path(ec);
}

void show_folder(ImageChooserState& c, const fs::path& folder) {
    std::error_code ec;
    c.folder = fs::weakly_canonical(folder, ec);
    if (ec) c.folder = folder;
    c.listing = list_image_folder(c.folder);
}

void browse(UiState& s, int slot) {
    ImageChooserState& c = s.image_chooser;
    c.slot = slot;
    const fs::path folder = start_folder(s.image_path[slot].data());
    if (DesktopFileChooser::available()) {
        auto chooser = std::make_shared<DesktopFileChooser>();
        if (!chooser->start(fmt::format("kcanvas: open image {}", slot_name(slot)), folder.string())) {
            c.desktop = std::move(chooser);
            return;
        }
    }
    show_folder(c, folder); // no desktop chooser (or it would not start): the window's own
    c.open_browser = true;
}

// The browser's list: the parent folder, the subfolders (a click opens one), the pictures (a click loads it).
void browser_list(ImageChooserState& c, Requests& requests) {
    const float rows = ImGui::GetTextLineHeightWithSpacing() * 14.0f;
    ImGui::BeginChild("##folder", ImVec2(ImGui::GetFontSize() * 28.0f, rows), true);
    std::optional<fs::path> open;
    if (c.folder.has_parent_path() && c.folder != c.folder.root_path() &&
        ui::Selectable("../", false, ImGuiSelectableFlags_DontClosePopups))
        open = c.folder.parent_path();
    for (const std::string& name : c.listing.folders)
        if (ui::Selectable((name + "/").c_str(), false, ImGuiSelectableFlags_DontClosePopups)) open = c.folder / name;
    for (const std::string& name : c.listing.images)
        if (ui::Selectable(name.c_str())) requests.push(request::LoadImage{c.slot, (c.folder / name).string(), {}});
    if (c.listing.images.empty() && c.listing.folders.empty()) ui::TextDisabled("(no pictures here)");
    ImGui::EndChild();
    if (open) show_folder(c, *open);
}

void browser_popup(ImageChooserState& c, Requests& requests) {
    if (c.open_browser) ImGui::OpenPopup(kBrowserTitle), c.open_browser = false;
    if (!ImGui::BeginPopupModal(kBrowserTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ui::Text("Image %c from %s", slot_name(c.slot), c.folder.string().c_str());
    if (!c.listing.error.empty()) wrapped_text(kErrorColour, c.listing.error);
    browser_list(c, requests);
    if (c.listing.cut_short) ui::TextDisabled("(only the first 2000 entries)");
    ui::TextDisabled("PNG, JPEG, BMP and TGA files; a click loads one.");
    if (!samples().empty() && ui::Button("Samples folder")) show_folder(c, samples().front().parent_path());
    same_line_if_fits(button_width("Cancel"));
    if (ui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

} // namespace

void image_source_buttons(UiState& s, Requests& requests, int slot) {
    const std::string sample = fmt::format("Sample {}", slot_name(slot)),
                      browse_label = fmt::format("Browse {}", slot_name(slot));
    const bool choosing = s.image_chooser.desktop != nullptr;
    same_line_if_fits(button_width(browse_label));
    if (choosing) ImGui::BeginDisabled();
    if (ui::Button(browse_label.c_str())) browse(s, slot);
    if (choosing) ImGui::EndDisabled();
    // The list of samples opens from an arrow button labelled "Sample A".
    same_line_if_fits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                      ImGui::CalcTextSize(sample.c_str()).x);
    if (ui::BeginCombo(sample.c_str(), "", ImGuiComboFlags_NoPreview)) {
        for (const fs::path& p : samples())
            if (ui::Selectable(p.filename().string().c_str())) requests.push(request::LoadImage{slot, p.string(), {}});
        if (samples().empty()) ui::TextDisabled("(none: kcanvas's data folder was not found)");
        ImGui::EndCombo();
    }
    if (choosing && s.image_chooser.slot == slot) wrapped_disabled("The desktop's file chooser is open.");
}

std::string samples_line() {
    std::string names;
    for (const fs::path& p : samples()) names += (names.empty() ? "" : ", ") + p.filename().string();
    if (names.empty()) return "Enter in a path field loads it.";
    return "Enter in a path field loads it; a bare name loads a sample (" + names + ").";
}

std::string samples_folder() {
    if (samples().empty())
        return "No sample pictures: kcanvas's data folder was not found (kcanvas --version says where it looked).";
    return "The samples are in " + samples().front().parent_path().string() + ".";
}

void image_choosers(UiState& s, Requests& requests) {
    ImageChooserState& c = s.image_chooser;
    browser_popup(c, requests);
    if (!c.desktop) return;
    if (auto chosen = c.desktop->poll()) requests.push(request::LoadImage{c.slot, *chosen, {}});
    if (!c.desktop->running()) c.desktop.reset(); // closed: chosen, or cancelled
}

void start_image_op_on_photo(const UiState& s, Requests& requests) {
    const OpInfo& op = op_registry()[s.job.op];
    if (!(op.inputs & kUsesImageA) || s.sources.loaded(0)) return;
    const std::string photo = resolve_data_file(kDefaultSampleImage, "images");
    if (photo == kDefaultSampleImage) return; // no data dir: the gradient stays, and the panel says so
    requests.push(request::LoadImage{
        0, photo,
        fmt::format("{} works on a picture and none was loaded (Clear A goes back to the gradient)", op.title)});
}

} // namespace kc
