// The PLY reader on files written by the tests into a temporary folder: ascii and binary, float
// and double, with and without colour (uchar, float, alpha), extra properties, comments and other
// elements; and one file per class of mistake, each with the error it must give (the file's name,
// then what is wrong, never a crash or half a cloud). Then points scenes through the scene loader.
#include "app/scene/ply_reader.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "app/scene/scene_loader.hpp"
#include "core/color.hpp"

namespace particles {
namespace {

const std::filesystem::path kScenes = PARTICLES_SCENES_DIR;

// Little-endian binary values, appended.
struct Bytes {
  std::string data;
  template <class T>
  Bytes& put(T v) {
    char b[sizeof v];
    std::memcpy(b, &v, sizeof v);
    data.append(b, sizeof v);
    return *this;
  }
  Bytes& f32(float v) { return put(v); }
  Bytes& f64(double v) { return put(v); }
  Bytes& u8(std::uint8_t v) { return put(v); }
  Bytes& i32(std::int32_t v) { return put(v); }
};

class PlyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("particles_ply_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write(const std::string& name, const std::string& bytes) const {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  // The PlyError's message for `bytes` written as `name` ("" if it loads); checks the message
  // starts with the file's path.
  std::string error_of(const std::string& name, const std::string& bytes) const {
    const std::filesystem::path path = write(name, bytes);
    try {
      read_ply(path);
    } catch (const PlyError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(path.string() + ": ", 0), 0u) << message;
      return message;
    }
    return "";
  }

  std::filesystem::path dir_;
};

std::string header(const std::string& format, std::uint64_t count, const std::string& properties,
                   const std::string& extra = "") {
  return "ply\nformat " + format + " 1.0\ncomment made by a test\nelement vertex " +
         std::to_string(count) + "\n" + properties + extra + "end_header\n";
}
const std::string kXyz = "property float x\nproperty float y\nproperty float z\n";
const std::string kXyzDouble = "property double x\nproperty double y\nproperty double z\n";
const std::string kRgbUchar = "property uchar red\nproperty uchar green\nproperty uchar blue\n";

#define EXPECT_ERROR(message, phrase) \
  EXPECT_NE((message).find(phrase), std::string::npos) << "message: " << (message)

TEST_F(PlyFiles, AsciiFloatsWithUcharColoursAndComments) {
  const std::string text =
      "ply\r\nformat ascii 1.0\r\ncomment a scanner\r\nobj_info v1\r\n"
      "element vertex 3\r\n" +
      kXyz + kRgbUchar + "end_header\r\n" +
      "1 2 3 255 0 0\r\n-1.5 0.25 1e2 0 128 255\r\n\r\n0 0 -0 10 20 30\r\n";
  const PlyCloud c = read_ply(write("a.ply", text));
  ASSERT_EQ(c.points.size(), 3u);
  EXPECT_TRUE(c.has_color);
  EXPECT_FALSE(c.has_alpha);
  EXPECT_EQ(c.points[0].x, 1.0f);
  EXPECT_EQ(c.points[0].z, 3.0f);
  EXPECT_EQ(c.points[0].rgba8, 0xff0000ffu);  // red, opaque
  EXPECT_EQ(c.points[1].x, -1.5f);
  EXPECT_EQ(c.points[1].z, 100.0f);
  EXPECT_EQ(c.points[1].rgba8, 0xffff8000u);
  EXPECT_EQ(c.points[2].rgba8, 0xff1e140au);
}

TEST_F(PlyFiles, BinaryDoublesWithFloatColoursAndAlpha) {
  Bytes b;
  b.data = header("binary_little_endian", 2,
                  kXyzDouble +
                      "property float red\nproperty float green\nproperty float blue\n"
                      "property float alpha\n");
  b.f64(0.1).f64(-2.0).f64(3.5).f32(1.0f).f32(0.5f).f32(0.0f).f32(0.25f);
  b.f64(1e3).f64(0.0).f64(-1e-3).f32(2.0f).f32(-1.0f).f32(0.2f).f32(1.0f);  // clamped
  const PlyCloud c = read_ply(write("b.ply", b.data));
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_TRUE(c.has_alpha);
  EXPECT_EQ(c.points[0].x, 0.1f);
  EXPECT_EQ(c.points[0].y, -2.0f);
  EXPECT_EQ(c.points[0].rgba8, pack_rgba8({1.0f, 0.5f, 0.0f, 0.25f}));
  EXPECT_EQ(c.points[1].x, 1000.0f);
  EXPECT_EQ(c.points[1].z, -1e-3f);
  EXPECT_EQ(c.points[1].rgba8, pack_rgba8({1.0f, 0.0f, 0.2f, 1.0f}));
}

TEST_F(PlyFiles, BinaryFloatsWithoutColour) {
  Bytes b;
  b.data = header("binary_little_endian", 2, kXyz);
  b.f32(1.0f).f32(2.0f).f32(3.0f).f32(-4.0f).f32(5.0f).f32(-6.0f);
  const PlyCloud c = read_ply(write("c.ply", b.data));
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_FALSE(c.has_color);
  EXPECT_EQ(c.points[1].x, -4.0f);
  EXPECT_EQ(c.points[1].z, -6.0f);
  EXPECT_EQ(c.points[1].rgba8, 0u);
}

TEST_F(PlyFiles, ExtraPropertiesAndOtherElementsAreSkipped) {
  // Normals and an intensity round the coordinates, in any order, uchar alpha; a fixed-size
  // element before the vertices and faces (lists) after them.
  const std::string vertex =
      "property float nx\nproperty double y\nproperty uchar intensity\nproperty float x\n"
      "property short flags\nproperty uchar alpha\nproperty float z\n" +
      kRgbUchar + "property float ny\n";
  const std::string before = "element camera 1\nproperty float view_x\nproperty int id\n";
  const std::string faces = "element face 2\nproperty list uchar int vertex_indices\n";
  const std::string head = "ply\nformat binary_little_endian 1.0\n" + before +
                           "element vertex 2\n" + vertex + faces + "end_header\n";
  Bytes b;
  b.data = head;
  b.f32(9.0f).i32(7);  // camera
  for (int i = 0; i < 2; ++i) {
    b.f32(0.5f).f64(10.0 + i).u8(200).f32(20.0f + static_cast<float>(i)).put(std::int16_t{-3});
    b.u8(128).f32(30.0f + static_cast<float>(i)).u8(1).u8(2).u8(3).f32(0.0f);
  }
  b.u8(3).i32(0).i32(1).i32(0).u8(4).i32(1).i32(0).i32(1).i32(0);  // faces
  const PlyCloud c = read_ply(write("d.ply", b.data));
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_EQ(c.points[1].x, 21.0f);
  EXPECT_EQ(c.points[1].y, 11.0f);
  EXPECT_EQ(c.points[1].z, 31.0f);
  EXPECT_EQ(c.points[1].rgba8, 0x80030201u);

  // The same in ascii, the faces before the vertices.
  const std::string ascii_head =
      "ply\nformat ascii 1.0\n" + faces + before + "element vertex 2\n" + vertex + "end_header\n";
  const std::string rows =
      "3 0 1 0\n4 1 0 1 0\n9 7\n0.5 10 200 20 -3 128 30 1 2 3 0\n"
      "0.5 11 200 21 -3 128 31 1 2 3 0\n";
  const PlyCloud a = read_ply(write("e.ply", ascii_head + rows));
  ASSERT_EQ(a.points.size(), 2u);
  EXPECT_EQ(a.points[1].x, 21.0f);
  EXPECT_EQ(a.points[1].rgba8, 0x80030201u);
}

TEST_F(PlyFiles, ReportsProgressToTheEnd) {
  Bytes b;
  const std::uint64_t n = 300000;  // more than one progress step
  b.data = header("binary_little_endian", n, kXyz);
  for (std::uint64_t i = 0; i < n; ++i) b.f32(static_cast<float>(i)).f32(0.0f).f32(1.0f);
  std::vector<std::uint64_t> seen;
  const PlyCloud c = read_ply(write("p.ply", b.data), [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_EQ(total, n);
    seen.push_back(done);
  });
  ASSERT_EQ(c.points.size(), n);
  EXPECT_EQ(c.points[n - 1].x, static_cast<float>(n - 1));
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen.back(), n);
}

// --- mistakes -------------------------------------------------------------------------------

TEST_F(PlyFiles, TruncatedBinary) {
  Bytes b;
  b.data = header("binary_little_endian", 3, kXyz);
  b.f32(1).f32(2).f32(3).f32(4).f32(5);  // a vertex and two thirds
  EXPECT_ERROR(
      error_of("t.ply", b.data),
      "3 vertices of at least 12 bytes each, but only 20 bytes follow the header: the file "
      "is truncated or the count is wrong");
}

TEST_F(PlyFiles, TruncatedAscii) {
  const std::string rows = "1.000000 2.000000 3.000000\n4.000000 5.000000 6.000000\n";
  EXPECT_ERROR(error_of("t.ply", header("ascii", 3, kXyz) + rows),
               "the file ends after 2 of the 3 vertices its header declares (truncated, or the "
               "count is wrong)");
  // Cut inside a record: the last line has too few values.
  EXPECT_ERROR(error_of("u.ply", header("ascii", 2, kXyz) + "1.000000 2.000000 3.000000\n4 5"),
               "line 10: vertex 1 has 2 values, expected 3");
}

TEST_F(PlyFiles, MissingCoordinate) {
  EXPECT_ERROR(error_of("m.ply", header("ascii", 1,
                                        "property float x\nproperty float y\nproperty float w\n") +
                                     "1 2 3\n"),
               "the vertex element has no 'z' property (it has: x, y, w)");
}

TEST_F(PlyFiles, CountDoesNotMatchTheData) {
  Bytes b;
  b.data = header("binary_little_endian", 1, kXyz);
  b.f32(1).f32(2).f32(3).f32(4).f32(5).f32(6);
  EXPECT_ERROR(error_of("c.ply", b.data),
               "12 bytes follow the last element the header declares: its counts do not match "
               "the data");
  EXPECT_ERROR(error_of("d.ply", header("ascii", 1, kXyz) + "1 2 3\n4 5 6\n"),
               "line 10: data after the last element the header declares");
}

TEST_F(PlyFiles, HugeDeclaredCounts) {
  // Refused before anything is allocated: more than a scene holds, or more than the file has.
  EXPECT_ERROR(error_of("h.ply", header("binary_little_endian", 4000000000000ull, kXyz)),
               "the header declares 4000000000000 vertices: more than the 134217728 a scene can "
               "hold");
  Bytes b;
  b.data = header("binary_little_endian", 100000000, kXyz);
  b.f32(1).f32(2).f32(3);
  EXPECT_ERROR(error_of("i.ply", b.data), "but only 12 bytes follow the header");
  EXPECT_ERROR(error_of("j.ply", header("ascii", 100000000, kXyz) + "1 2 3\n"),
               "but only 6 bytes follow the header");
  // A huge element other than the vertices, before them.
  EXPECT_ERROR(error_of("k.ply",
                        "ply\nformat binary_little_endian 1.0\nelement junk 99999999999\n"
                        "property double a\nelement vertex 1\n" +
                            kXyz + "end_header\n" + std::string(12, '\0')),
               "the header declares 99999999999 junks of at least 8 bytes each");
  EXPECT_ERROR(error_of("l.ply", header("ascii", 0, kXyz)), "the file has no vertices");
  EXPECT_ERROR(error_of("m.ply", "ply\nformat ascii 1.0\nelement vertex 99999999999999999999\n" +
                                     kXyz + "end_header\n"),
               "element vertex: bad count '99999999999999999999'");
}

TEST_F(PlyFiles, NotAPlyFile) {
  EXPECT_ERROR(error_of("n.ply", "PK\x03\x04 a zip file"),
               "not a PLY file: it does not start with the line \"ply\"");
  EXPECT_ERROR(error_of("e.ply", ""), "not a PLY file");
  EXPECT_ERROR(error_of("o.ply", "ply\nformat ascii 1.0\nelement vertex 1\n" + kXyz),
               "the header has no end_header line");
  EXPECT_ERROR(error_of("p.ply", "ply\nformat ascii 1.0\nelement vertex 1\n" + kXyz +
                                     "property float z\nend_header\n"),
               "header line 7: a second property z in vertex");
  EXPECT_ERROR(error_of("q.ply",
                        "ply\nformat ascii 1.0\nelement vertex 1\nproperty float64 x\n"
                        "property half y\nend_header\n"),
               "header line 5: unknown type 'half'");
  EXPECT_ERROR(error_of("r.ply", "ply\nelement vertex 1\n" + kXyz + "end_header\n1 2 3\n"),
               "the header has no format line");
  EXPECT_ERROR(error_of("s.ply",
                        "ply\nformat ascii 1.0\nelement face 1\n"
                        "property list uchar int vertex_indices\nend_header\n3 0 1 2\n"),
               "the header declares no vertex element");
  EXPECT_ERROR(error_of("t.ply", "ply\nformat ascii 1.0\nbanana\nend_header\n"),
               "header line 3: unknown keyword 'banana'");
}

TEST_F(PlyFiles, UnsupportedFormats) {
  EXPECT_ERROR(error_of("b.ply", header("binary_big_endian", 1, kXyz) + std::string(12, '\0')),
               "header line 2: format binary_big_endian is not supported: save the file as "
               "binary_little_endian or ascii");
  EXPECT_ERROR(error_of("c.ply", header("utf16", 1, kXyz)), "unknown format 'utf16'");
  EXPECT_ERROR(error_of("d.ply", "ply\nformat ascii 2.0\n"), "unsupported PLY version 2.0");
}

TEST_F(PlyFiles, UnsupportedProperties) {
  EXPECT_ERROR(
      error_of("a.ply", header("ascii", 1, "property int x\nproperty float y\nproperty float z\n") +
                            "1 2 3\n"),
      "vertex property 'x' is int: expected float or double");
  EXPECT_ERROR(
      error_of("b.ply", header("ascii", 1, kXyz + "property list uchar int ids\n") + "1 2 3 0\n"),
      "vertex property 'ids' is a list");
  EXPECT_ERROR(error_of("c.ply", header("ascii", 1, kXyz + "property uchar red\n") + "1 2 3 4\n"),
               "has some of red, green, blue but not all three (it has: x, y, z, red)");
  EXPECT_ERROR(error_of("d.ply", header("ascii", 1, kXyz + "property uchar alpha\n") + "1 2 3 4\n"),
               "has alpha but no red, green, blue");
  EXPECT_ERROR(error_of("e.ply", header("ascii", 1,
                                        kXyz + "property int red\n"
                                               "property uchar green\n"
                                               "property uchar blue\n") +
                                     "1 2 3 4 5 6\n"),
               "vertex property 'red' is int: expected uchar, ushort, float or double");
}

TEST_F(PlyFiles, GarbageNumbers) {
  EXPECT_ERROR(error_of("g.ply", header("ascii", 2, kXyz) + "1 2 3\n1 abc 3\n"),
               "line 10: vertex 1: 'abc' is not a number (property y)");
  EXPECT_ERROR(error_of("h.ply", header("ascii", 1, kXyz) + "1 2 3x\n"),
               "'3x' is not a number (property z)");
  EXPECT_ERROR(error_of("i.ply", header("ascii", 1, kXyz) + "1 1e999 3\n"),
               "vertex 0: y = 1e999 is out of range");
  EXPECT_ERROR(error_of("j.ply", header("ascii", 1, kXyz) + "nan 2 3\n"),
               "vertex 0: x = nan is not a finite float");
  Bytes b;
  b.data = header("binary_little_endian", 1, kXyzDouble);
  b.f64(1.0).f64(1e300).f64(0.0);  // finite as a double, not as a float
  EXPECT_ERROR(error_of("k.ply", b.data), "vertex 0: y = ");
  Bytes c;
  c.data = header("binary_little_endian", 1,
                  kXyz +
                      "property float red\nproperty float green\n"
                      "property float blue\n");
  c.f32(0).f32(0).f32(0).f32(std::numeric_limits<float>::quiet_NaN()).f32(0).f32(0);
  EXPECT_ERROR(error_of("l.ply", c.data), "vertex 0: red is not a number");
}

TEST_F(PlyFiles, MissingFile) {
  try {
    read_ply(dir_ / "absent.ply");
    FAIL() << "no error";
  } catch (const PlyError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir_ / "absent.ply").string() + ": cannot open point cloud file: not found");
  }
  EXPECT_THROW(read_ply(dir_), PlyError);  // a directory
}

// Issue 64: a FIFO named as a point cloud blocked the loader forever (opening a FIFO to read
// waits for a writer); a directory or a device is named as what it is. With a writer held open
// the old reader did not block, but said only that it could not read the size.
TEST_F(PlyFiles, AFifoOrADirectoryIsRefusedBeforeOpeningIt) {
  const std::filesystem::path fifo = dir_ / "cloud.ply";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const int writer = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(writer, 0) << std::strerror(errno);
  auto message = [](const std::filesystem::path& path) -> std::string {
    try {
      read_ply(path);
    } catch (const PlyError& e) {
      return e.what();
    }
    return "";
  };
  ASSERT_EQ(message(fifo),
            fifo.string() + ": cannot open point cloud file: is not a regular file (it is a FIFO)");
  ::close(writer);
  // No writer now: opening it would block; the reader never opens it.
  EXPECT_EQ(message(fifo),
            fifo.string() + ": cannot open point cloud file: is not a regular file (it is a FIFO)");
  EXPECT_EQ(message(dir_), dir_.string() + ": cannot open point cloud file: is a directory");
  EXPECT_EQ(message("/dev/null"),
            "/dev/null: cannot open point cloud file: is not a regular file (it is a character "
            "device)");
}

// Issue 64: the size check before allocating counted two bytes per ascii value, a digit and a
// separator, and so refused a valid file whose last line has no newline.
TEST_F(PlyFiles, AnAsciiFileWhoseLastLineHasNoNewlineLoads) {
  const PlyCloud one = read_ply(write("one.ply", header("ascii", 1, kXyz) + "1 2 3"));
  ASSERT_EQ(one.points.size(), 1u);
  EXPECT_FLOAT_EQ(one.points[0].z, 3.0f);
  const PlyCloud two = read_ply(write("two.ply", header("ascii", 2, kXyz) + "1 2 3\r\n4 5 6"));
  ASSERT_EQ(two.points.size(), 2u);
  EXPECT_FLOAT_EQ(two.points[1].x, 4.0f);
  // One byte short of that is still refused before anything is read.
  EXPECT_NE(error_of("short.ply", header("ascii", 2, kXyz) + "1 2 3\n4 5")
                .find("the file is truncated or the count is wrong"),
            std::string::npos);
}

// Issue 64: a NUL in a property name cut the message short at what(), and an escape sequence
// reached the terminal; both are written out as \xNN, the whole message kept.
TEST_F(PlyFiles, ControlCharactersInNamesAreEscapedAndTheMessageIsWhole) {
  const std::string nul_name = std::string("property float n") + '\0' + "me\n";
  const std::string message = error_of(
      "nul.ply", header("ascii", 1, "property float x\nproperty float y\n" + nul_name) + "1 2 3\n");
  EXPECT_NE(message.find("the vertex element has no 'z' property (it has: x, y, n\\x00me)"),
            std::string::npos)
      << message;
  const std::string escape = error_of(
      "esc.ply", header("ascii", 1, "property float x\nproperty float \x1b[2Jy\n") + "1 2\n");
  EXPECT_NE(escape.find("(it has: x, \\x1b[2Jy)"), std::string::npos) << escape;
  EXPECT_EQ(escape.find('\x1b'), std::string::npos) << escape;
}

// --- points scenes --------------------------------------------------------------------------

class PointsScene : public PlyFiles {
 protected:
  // A 2 x 4 x 1 box of points, colourless: corners (0,0,0) .. (2,4,1) and one in the middle.
  std::string box_ply() const {
    return header("ascii", 5, kXyz) + "0 0 0\n2 0 0\n0 4 0\n2 4 1\n1 2 0.5\n";
  }
  SceneDesc load(const std::string& model_table, const std::string& more = "") const {
    write("box.ply", box_ply());
    const std::filesystem::path scene =
        write("scene.toml", more + "[model]\ntype = \"points\"\n[model.points]\n" + model_table);
    return load_scene(scene);
  }
  std::string error(const std::string& model_table, const std::string& more = "") const {
    try {
      load(model_table, more);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(PointsScene, FileRelativeToTheSceneCountsFromTheCloud) {
  const SceneDesc d =
      load("file = \"box.ply\"\n", "[colors]\ninner = [1, 0, 0, 0.5]\nouter = [0, 0, 1, 1]\n");
  ASSERT_TRUE(d.points);
  ASSERT_EQ(d.points->size(), 5u);
  EXPECT_EQ(d.count, 5u);
  EXPECT_EQ(d.cpu_count, 5u);
  EXPECT_EQ(d.params.points.records, d.points->data());
  EXPECT_EQ(d.params.points.record_count, 5u);
  EXPECT_EQ(d.params.points.motion, PointMotion::still);
  // Kept where the file has them; the box's centre is the motion's.
  EXPECT_EQ((*d.points)[3].x, 2.0f);
  EXPECT_EQ((*d.points)[3].y, 4.0f);
  EXPECT_FLOAT_EQ(d.params.points.centre.x, 1.0f);
  EXPECT_FLOAT_EQ(d.params.points.centre.y, 2.0f);
  EXPECT_FLOAT_EQ(d.params.points.centre.z, 0.5f);
  // No colours in the file: colors.inner at the bottom to colors.outer at the top.
  EXPECT_EQ((*d.points)[0].rgba8, pack_rgba8({1, 0, 0, 0.5f}));
  EXPECT_EQ((*d.points)[2].rgba8, pack_rgba8({0, 0, 1, 1}));
  EXPECT_EQ((*d.points)[4].rgba8, pack_rgba8({0.5f, 0, 0.5f, 0.75f}));
}

TEST_F(PointsScene, UpFitAlphaMotionAndCounts) {
  const SceneDesc d = load(
      "file = \"box.ply\"\nup = \"z\"\nfit = 8\nalpha = 0.5\nmotion = \"breathing\"\n"
      "period = 3\namplitude = 0.1\n",
      "[particles]\ncount = 12\n[colors]\ninner = [1, 1, 1, 1]\nouter = [1, 1, 1, 1]\n");
  EXPECT_EQ(d.count, 12u);     // the scene's own: each point repeated
  EXPECT_EQ(d.cpu_count, 5u);  // the cloud's
  EXPECT_EQ(d.params.points.motion, PointMotion::breathing);
  EXPECT_FLOAT_EQ(d.params.points.period, 3.0f);
  EXPECT_FLOAT_EQ(d.params.points.amplitude, 0.1f);
  // z up: (x, y, z) -> (x, z, -y), 2 x 1 x 4, centred and scaled to 8 along its longest side.
  const PointRecord& far = (*d.points)[3];  // (2, 4, 1) -> (2, 1, -4) -> (2, 2, -8) * 0.5 * 2
  EXPECT_FLOAT_EQ(far.x, 2.0f);
  EXPECT_FLOAT_EQ(far.y, 1.0f);
  EXPECT_FLOAT_EQ(far.z, -4.0f);
  EXPECT_FLOAT_EQ(d.params.points.centre.x, 0.0f);
  EXPECT_FLOAT_EQ(d.params.points.centre.z, 0.0f);
  EXPECT_EQ(far.rgba8 >> 24, 128u);  // alpha halved
}

TEST_F(PointsScene, TheFilesColoursWin) {
  write("c.ply", header("ascii", 1, kXyz + kRgbUchar) + "0 0 0 10 20 30\n");
  const SceneDesc d =
      load_scene(write("s.toml",
                       "[model]\ntype = 'points'\n[model.points]\nfile = 'c.ply'\nmotion = "
                       "'turntable'\nspeed = -2\n"));
  EXPECT_EQ((*d.points)[0].rgba8, 0xff1e140au);
  EXPECT_EQ(d.params.points.motion, PointMotion::turntable);
  EXPECT_FLOAT_EQ(d.params.points.speed, -2.0f);
}

TEST_F(PointsScene, Mistakes) {
  const std::string scene = (dir_ / "scene.toml").string();
  EXPECT_EQ(error(""), scene + ":3:1: missing key model.points.file: the PLY file to load");
  EXPECT_EQ(error("file = 3\n"), scene +
                                     ":4:8: model.points.file: expected a string (a path), got "
                                     "an integer");
  EXPECT_EQ(error("file = \"nowhere.ply\"\n"),
            scene + ":4:8: model.points.file: " + (dir_ / "nowhere.ply").string() +
                ": cannot open point cloud file: not found");
  EXPECT_EQ(error("file = \"box.ply\"\nmotion = \"spin\"\n"),
            scene +
                ":5:10: model.points.motion = \"spin\" is not one of \"still\", \"turntable\", "
                "\"breathing\"");
  EXPECT_EQ(error("file = \"box.ply\"\nup = \"x\"\n"),
            scene + ":5:6: model.points.up = \"x\" is not one of \"y\", \"z\"");
  EXPECT_NE(
      error("file = \"box.ply\"\nspeed = 11\n").find("model.points.speed = 11 is out of range"),
      std::string::npos);
  EXPECT_NE(error("file = \"box.ply\"\nsize = 1\n").find("unknown key 'size' in [model.points]"),
            std::string::npos);
  write("bad.ply", header("ascii", 2, kXyz) + "1.000000 2.000000 3.000000\n");
  EXPECT_NE(error("file = \"bad.ply\"\n")
                .find("model.points.file: " + (dir_ / "bad.ply").string() +
                      ": the file ends after 1 of the 2 vertices"),
            std::string::npos);
  try {
    parse_scene("[model]\ntype = 'points'\n", "x.toml");
    FAIL() << "no error";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("missing table [model.points]"), std::string::npos);
  }
}

TEST(PointsSceneShipped, TheSampleLoads) {
  const SceneDesc d = load_scene(kScenes / "points.toml");
  EXPECT_EQ(d.params.model, Model::points);
  ASSERT_TRUE(d.points);
  EXPECT_EQ(d.points->size(), 200000u);
  EXPECT_EQ(d.count, 200000u);
  EXPECT_EQ(d.cpu_count, 200000u);
  EXPECT_EQ(d.params.points.motion, PointMotion::turntable);
}

}  // namespace
}  // namespace particles
