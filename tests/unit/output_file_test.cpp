// Output files are written whole or not at all (core/output_file.hpp): a write that fails half
// way leaves the earlier file as it was and no temporary file behind; output paths that cannot
// be written are refused up front with the flag's name; nothing but a regular file or a new name
// is ever written (links, FIFOs and device nodes are refused and left as they were), nor a file
// the run reads; a folder the run fills must be new or empty.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/file_bytes.hpp"
#include "core/output_file.hpp"
#include "tests/support/temp_dir.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;

class OutputFile : public ::testing::Test {
 protected:
  static std::string read(const fs::path& file) { return file_bytes(file).value_or(""); }
  // Every file in dir_, by name.
  std::string listing() const {
    std::string names;
    for (const auto& e : fs::directory_iterator(dir_)) names += e.path().filename().string() + ";";
    return names;
  }
  std::string message_of(auto&& f) {
    try {
      f();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }

  const test::TempDir temp_{"output_file_test"};
  const fs::path dir_ = temp_.path();
};

TEST_F(OutputFile, WritesTheBytesAndCreatesTheFolders) {
  const fs::path file = dir_ / "a" / "b" / "report.csv";
  write_file_atomically(file, "x,y\n1,2\n");
  EXPECT_EQ(read(file), "x,y\n1,2\n");
  write_file_atomically(file, "replaced");
  EXPECT_EQ(read(file), "replaced");
  EXPECT_EQ(listing(), "a;");  // no temporary file left
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "a" / "b"), fs::directory_iterator()), 1);
}

// A write cut short by the disk (here a file-size limit, as a full disk or quota would): the
// old file keeps its bytes and the half-written temporary file is gone.
TEST_F(OutputFile, AWriteThatFailsHalfWayLeavesTheOldFileWhole) {
  const fs::path file = dir_ / "summary.json";
  write_file_atomically(file, "{\"old\": true}\n");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // write() then fails with EFBIG instead of killing us
    const rlimit limit{65536, 65536};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file_atomically(file, std::string(1 << 20, 'x'));
    } catch (const std::runtime_error& e) {
      const std::string m = e.what();
      _exit(m.find("cannot write " + file.string() + ": ") == 0 ? 0 : 3);
    }
    _exit(2);  // it did not fail
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: the write did not fail; 3: wrong message";
  EXPECT_EQ(read(file), "{\"old\": true}\n");
  EXPECT_EQ(listing(), "summary.json;");
}

TEST_F(OutputFile, AFileWhereTheFolderShouldBeIsRefused) {
  write_file_atomically(dir_ / "plain", "x");
  const std::string m = message_of([&] { write_file_atomically(dir_ / "plain" / "x.png", "y"); });
  EXPECT_EQ(m.rfind("cannot write " + (dir_ / "plain" / "x.png").string() +
                        ": cannot create directory " + (dir_ / "plain").string(),
                    0),
            0u)
      << m;
}

TEST_F(OutputFile, PathsAreCheckedUpFrontNamingTheFlag) {
  write_file_atomically(dir_ / "plain", "x");
  EXPECT_NO_THROW(check_output_file(dir_ / "new" / "shot.png", "--screenshot"));
  EXPECT_TRUE(fs::is_directory(dir_ / "new"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "new"), fs::directory_iterator()), 0);
  EXPECT_EQ(message_of([&] {
              check_output_file(dir_ / "plain" / "shot.png", "--screenshot");
            }).rfind("--screenshot: cannot create directory " + (dir_ / "plain").string(), 0),
            0u);
  EXPECT_EQ(message_of([&] { check_output_file(dir_, "--report"); }),
            "--report: " + dir_.string() + " is a directory");
  EXPECT_EQ(message_of([&] {
              check_output_dir(dir_ / "plain", "--out");
            }).rfind("--out: cannot create directory " + (dir_ / "plain").string(), 0),
            0u);
  EXPECT_NO_THROW(check_output_dir(dir_ / "out", "--out"));
  if (::geteuid() != 0) {  // root writes anywhere
    fs::create_directories(dir_ / "locked");
    fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(
        message_of([&] { check_output_dir(dir_ / "locked", "--out"); }),
        "--out: cannot create files in " + (dir_ / "locked").string() + ": Permission denied");
    fs::permissions(dir_ / "locked", fs::perms::owner_all);
  }
}

// The issue's /dev/null, without touching /dev: rename() would have replaced the node with a
// regular file. Both the up-front check and the write itself refuse, and leave it as it was.
void expect_refused_and_kept(const fs::path& node, fs::file_type type, const std::string& kind,
                             auto&& message_of) {
  EXPECT_EQ(message_of([&] { check_output_file(node, "--screenshot"); }),
            "--screenshot: " + node.string() + " is " + kind +
                ", not a regular file: an output replaces only a regular file");
  EXPECT_EQ(message_of([&] { write_file_atomically(node, "png bytes"); }),
            "cannot write " + node.string() + ": it is " + kind + ", not a regular file");
  EXPECT_EQ(fs::symlink_status(node).type(), type);
}

TEST_F(OutputFile, AFifoIsNeverReplaced) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  expect_refused_and_kept(fifo, fs::file_type::fifo, "a FIFO",
                          [this](auto&& f) { return message_of(f); });
  EXPECT_EQ(listing(), "pipe;");
}

TEST_F(OutputFile, ADeviceNodeIsNeverReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a device node needs root (CI runs as root)";
  const fs::path null = dir_ / "null";  // a scratch node with /dev/null's numbers
  ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0) << std::strerror(errno);
  expect_refused_and_kept(null, fs::file_type::character, "a character device",
                          [this](auto&& f) { return message_of(f); });
  EXPECT_EQ(listing(), "null;");
}

// Refused, not followed: writing through the link would change a file the command did not name,
// and renaming over it would replace the link and leave its target stale.
TEST_F(OutputFile, ASymbolicLinkIsRefusedAndNeitherItNorItsTargetChanges) {
  write_file_atomically(dir_ / "target.png", "old");
  fs::create_symlink(dir_ / "target.png", dir_ / "link.png");
  EXPECT_EQ(message_of([&] { check_output_file(dir_ / "link.png", "--screenshot"); }),
            "--screenshot: " + (dir_ / "link.png").string() +
                " is a symbolic link: an output is never written over or through a link; name "
                "the file itself, or a new one");
  EXPECT_EQ(message_of([&] { write_file_atomically(dir_ / "link.png", "new"); }),
            "cannot write " + (dir_ / "link.png").string() +
                ": it is a symbolic link, not a regular file");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.png"));
  EXPECT_EQ(read(dir_ / "target.png"), "old");
  // A dangling link is refused the same way (the write would have made its target appear).
  fs::create_symlink(dir_ / "nowhere.png", dir_ / "dangling.png");
  EXPECT_NE(message_of([&] {
              check_output_file(dir_ / "dangling.png", "--report");
            }).find("is a symbolic link"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "nowhere.png"));
}

TEST_F(OutputFile, AFileTheRunReadsIsNeverAnOutput) {
  write_file_atomically(dir_ / "scene.toml", "name = 'x'\n");
  fs::create_hard_link(dir_ / "scene.toml", dir_ / "same.toml");  // another name, the same file
  const std::vector<RunInput> inputs = {{dir_ / "scene.toml", "the scene file of 'x'"}};
  for (const fs::path& output :
       {dir_ / "scene.toml", dir_ / "." / "scene.toml", dir_ / "same.toml"}) {
    EXPECT_EQ(message_of([&] { check_output_file(output, "--screenshot", inputs); }),
              "--screenshot: " + output.string() +
                  " is the scene file of 'x' this run reads; name another file for the output");
  }
  EXPECT_EQ(message_of([&] {
              check_output_dir(dir_, "--out", {"frames.csv", "same.toml"}, inputs);
            }).rfind("--out: " + (dir_ / "same.toml").string() + " is the scene file", 0),
            0u);
  EXPECT_NO_THROW(check_output_file(dir_ / "shot.png", "--screenshot", inputs));
  EXPECT_EQ(read(dir_ / "scene.toml"), "name = 'x'\n");
}

TEST_F(OutputFile, EmptyPathsNameNothing) {
  EXPECT_EQ(message_of([&] { check_output_file("", "--screenshot"); }),
            "--screenshot: an empty path names no file");
  // Before, "" passed as the current folder, and the bench failed after its last frame.
  EXPECT_EQ(message_of([&] { check_output_dir("", "--out"); }),
            "--out: an empty path names no directory");
  EXPECT_EQ(message_of([&] { prepare_empty_output_dir("", "--record"); }),
            "--record: an empty path names no directory");
}

TEST_F(OutputFile, AnOutputDirectorysFilesAreCheckedToo) {
  fs::create_directories(dir_ / "out" / "summary.json");
  EXPECT_EQ(message_of([&] { check_output_dir(dir_ / "out", "--out", {"summary.json"}); }),
            "--out: " + (dir_ / "out" / "summary.json").string() + " is a directory");
  // A folder given as a link to a folder is fine: files are made inside it, never over it.
  fs::create_directories(dir_ / "real");
  fs::create_directory_symlink(dir_ / "real", dir_ / "linked");
  EXPECT_NO_THROW(check_output_dir(dir_ / "linked", "--out", {"summary.json"}));
}

TEST_F(OutputFile, RefusingToOverwriteKeepsAnExistingFile) {
  write_file_atomically(dir_ / "frame.png", "someone's");
  EXPECT_EQ(
      message_of([&] { write_file_atomically(dir_ / "frame.png", "ours", Overwrite::refuse); }),
      "cannot write " + (dir_ / "frame.png").string() +
          ": a file of that name exists; it is left as it is");
  EXPECT_EQ(read(dir_ / "frame.png"), "someone's");
  write_file_atomically(dir_ / "new.png", "ours", Overwrite::refuse);
  EXPECT_EQ(read(dir_ / "new.png"), "ours");
  EXPECT_EQ(listing().find(".tmp-"), std::string::npos) << listing();
}

// The temporary and probe files are the module's own: a file that happens to bear such a name is
// neither truncated, renamed nor removed.
TEST_F(OutputFile, FilesNamedLikeItsTemporaryFilesAreLeftAlone) {
  const std::string pid = std::to_string(::getpid());
  const std::vector<std::string> names = {".shot.png.tmp-" + pid, ".shot.png.tmp-" + pid + "-0",
                                          ".particles-probe-" + pid,
                                          ".particles-probe-" + pid + "-0"};
  for (const std::string& name : names) std::ofstream(dir_ / name) << name;
  check_output_file(dir_ / "shot.png", "--screenshot");
  write_file_atomically(dir_ / "shot.png", "png");
  EXPECT_EQ(read(dir_ / "shot.png"), "png");
  for (const std::string& name : names) EXPECT_EQ(read(dir_ / name), name);
}

TEST_F(OutputFile, ARecordingFolderMustBeNewOrEmpty) {
  const fs::path made = prepare_empty_output_dir(dir_ / "new" / "rec/", "--record");
  EXPECT_EQ(made, dir_ / "new" / "rec");
  EXPECT_TRUE(fs::is_directory(made));
  EXPECT_EQ(prepare_empty_output_dir(made, "--record"), made);  // still empty: fine
  std::ofstream(made / "holiday.jpg") << "a photo";
  fs::create_directories(dir_ / "new" / "rec-2");  // taken: the suggestion skips it
  EXPECT_EQ(message_of([&] { prepare_empty_output_dir(made, "--record"); }),
            "--record: " + made.string() +
                " is not empty (it holds holiday.jpg): the run writes only into a new or empty "
                "folder, so that it replaces nothing; name a fresh one, such as " +
                (dir_ / "new" / "rec-3").string());
  EXPECT_EQ(read(made / "holiday.jpg"), "a photo");
  EXPECT_EQ(std::distance(fs::directory_iterator(made), fs::directory_iterator()), 1);
  std::ofstream(dir_ / "plain") << "x";
  EXPECT_EQ(message_of([&] { prepare_empty_output_dir(dir_ / "plain", "--record"); }),
            "--record: cannot create directory " + (dir_ / "plain").string() +
                ": a file of that name exists");
}

TEST_F(OutputFile, AnUnusedNameSkipsEveryTakenOne) {
  EXPECT_EQ(unused_file_name(dir_, "screenshot-7", "png"), dir_ / "screenshot-7.png");
  std::ofstream(dir_ / "screenshot-7.png") << "earlier run";
  fs::create_symlink(dir_ / "nowhere", dir_ / "screenshot-7-2.png");  // dangling, still taken
  EXPECT_EQ(unused_file_name(dir_, "screenshot-7", "png"), dir_ / "screenshot-7-3.png");
  EXPECT_EQ(unused_file_name("", "a", "png"), fs::path("a.png"));
}

// Issue 64: `--screenshot X --report X` wrote the report over the screenshot, and a screenshot
// inside the --record folder was a file the recording did not expect. Any spelling counts.
TEST_F(OutputFile, TwoOutputsThatAreOneFileAreRefusedInAnySpelling) {
  const fs::path shot = dir_ / "shot.png";
  fs::create_directories(dir_ / "sub");
  fs::create_directory_symlink(dir_, dir_ / "here");  // a link in a parent folder
  const std::string also = " is also the --screenshot output (" + shot.string() + ")";
  for (const fs::path& report : {shot, dir_ / "." / "shot.png", dir_ / "sub" / ".." / "shot.png",
                                 dir_ / "here" / "shot.png"}) {
    EXPECT_EQ(message_of([&] {
                check_distinct_outputs({{shot, "--screenshot"}, {report, "--report"}});
              }),
              "--report: " + report.string() + also +
                  ": one would replace the other; name a different file for each")
        << report;
  }
  // A relative spelling is resolved against the working folder.
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  EXPECT_NE(message_of([&] {
              check_distinct_outputs({{"shot.png", "--screenshot"}, {shot, "--report"}});
            }).find("is also the --screenshot output"),
            std::string::npos);
  fs::current_path(cwd);
  // A hard link to an existing file is that file.
  std::ofstream(shot) << "earlier";
  fs::create_hard_link(shot, dir_ / "hard.png");
  EXPECT_NE(message_of([&] {
              check_distinct_outputs({{shot, "--screenshot"}, {dir_ / "hard.png", "--report"}});
            }).find("--report: " + (dir_ / "hard.png").string() + also),
            std::string::npos);
  // Different files pass, and an empty path is no output.
  check_distinct_outputs({{shot, "--screenshot"}, {dir_ / "times.csv", "--report"}, {"", "--x"}});
  check_distinct_outputs({{"", "--screenshot"}, {"", "--report"}});
  EXPECT_EQ(read(shot), "earlier");
}

TEST_F(OutputFile, AFileOutputInsideTheRecordingFolderIsRefused) {
  const fs::path rec = dir_ / "rec";
  for (const fs::path& shot : {rec / "shot.png", rec / "deeper" / "shot.png", rec, dir_ / "rec/"}) {
    const std::string message = message_of([&] {
      check_distinct_outputs({{shot, "--screenshot"}, {rec, "--record", true}});
    });
    EXPECT_TRUE(message.starts_with("--screenshot: " + shot.string() + " is ") ||
                message.starts_with("--record: " + rec.string() + " is also the --screenshot"))
        << shot << ": " << message;
    EXPECT_NE(message, "") << shot;
  }
  EXPECT_EQ(message_of([&] {
              check_distinct_outputs({{rec / "a.png", "--screenshot"}, {rec, "--record", true}});
            }),
            "--screenshot: " + (rec / "a.png").string() + " is inside the --record folder " +
                rec.string() +
                ", which holds only the files that flag writes; name a file "
                "outside it");
  // Beside the folder, or a name that merely starts like it, is fine; nothing was created.
  check_distinct_outputs({{dir_ / "rec.png", "--screenshot"},
                          {dir_ / "rec-2" / "a.png", "--report"},
                          {rec, "--record", true}});
  EXPECT_EQ(listing(), "");
}

TEST_F(OutputFile, AnInputIsNamedWhenAnOutputIsIt) {
  std::ofstream(dir_ / "scene.toml") << "x";
  const std::vector<RunInput> inputs = {{dir_ / "scene.toml", "the scene file of 'X'"}};
  EXPECT_EQ(message_of([&] { check_not_an_input(dir_ / "." / "scene.toml", "--report", inputs); }),
            "--report: " + (dir_ / "." / "scene.toml").string() +
                " is the scene file of 'X' this run reads; name another file for the output");
  check_not_an_input(dir_ / "other.toml", "--report", inputs);
}

}  // namespace
}  // namespace particles
