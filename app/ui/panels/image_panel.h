#pragma once
// Getting a picture in, beside each image's path field: a menu of the shipped samples, Browse
// (the desktop's file chooser where zenity is installed, else a small browser in the window), and
// the photograph image ops start on when none is loaded.
#include <filesystem>
#include <memory>
#include <string>

#include "app/core/file_chooser.h"
#include "app/core/requests.h"

namespace kc {

struct UiState;
class Messages;

struct ImageChooserState {
    int slot = 0;                                // the image (0: A, 1: B) the chooser or browser loads
    std::shared_ptr<DesktopFileChooser> desktop; // zenity while it is open (shared: UiState stays copyable)
    std::filesystem::path folder;                // the window's own browser: the folder it lists
    FolderListing listing;
    bool open_browser = false; // open the browser's popup on this frame
};

// "Sample A" (the shipped pictures) and "Browse A": draw after the slot's path field.
void image_source_buttons(UiState& s, Requests& requests, int slot);
// "Enter in a path field loads it; a bare name loads a sample (logo.png, rose.jpg).", and where
// the samples are (for the section's help).
std::string samples_line();
std::string samples_folder();
// The window's own browser (a popup), and what the desktop's chooser chose: once a frame,
// whether or not the Images section is open.
void image_choosers(UiState& s, Requests& requests);
// An op that reads image A, chosen while none is loaded, starts on the shipped photograph.
void start_image_op_on_photo(const UiState& s, Requests& requests);

} // namespace kc
