#pragma once
// What each scene model is told by its scene file: one plain parameter struct per model, and
// ModelParams, which carries all of them into a kernel argument. Defaults here are the
// documented defaults of docs/scenes.md.
#include <cstdint>

#include "core/color.hpp"
#include "core/vec3.hpp"

namespace particles {

// One entry per model; the names the scene files use are in core/models/model_names.hpp.
enum class Model {
  galaxy,
  fountain,
  smoke,
  vortex_ring,
  fireworks,
  attractor,
  shells,
  snow,
  points
};

// A disc of stars in logarithmic-ish spiral arms, in differential rotation about +y.
struct GalaxyParams {
  int arms = 2;
  float radius = 10.0f;          // outer radius of the disc
  float thickness = 0.6f;        // full height of the disc at the centre
  float twist = 6.0f;            // radians an arm winds from centre to rim
  float arm_spread = 0.45f;      // angular scatter around an arm, radians
  float core_fraction = 0.15f;   // share of particles in the central bulge
  float rotation_speed = 0.35f;  // angular speed at the rim, radians per second
};

// Particles launched upward from a nozzle in a cone, falling under gravity, respawned when their
// lifetime ends.
struct FountainParams {
  Vec3 nozzle{0.0f, 0.0f, 0.0f};
  float speed = 9.0f;        // launch speed, units per second
  float cone_angle = 0.28f;  // half-angle of the launch cone, radians
  float gravity = 9.81f;     // downward acceleration
  float lifetime = 2.2f;     // seconds before respawn
};

// Puffs rising from a disc through a divergence-free (curl-noise) flow, spreading and fading
// with age; each life is drawn light or dark.
struct SmokeParams {
  Vec3 source{0.0f, 0.0f, 0.0f};  // centre of the emitting disc (in the xz plane)
  float source_radius = 0.6f;
  float rise_speed = 1.6f;     // buoyant rise at birth, units per second
  float lifetime = 7.0f;       // seconds before respawn
  float turbulence = 1.2f;     // speed of the curl-noise flow, units per second
  float noise_scale = 0.35f;   // spatial frequency of the flow, 1 / units
  float spread = 0.12f;        // outward drift from the plume's axis, 1 / seconds
  float wind = 0.25f;          // sideways (+x) drift gained per second of age
  float dark_fraction = 0.5f;  // share of the vent (its -z side) giving soot, colors.outer
  float growth = 3.0f;         // a puff's sprite diameter at the end of its life over its birth's
};

// A vortex ring travelling up +y: particles in a torus around its core circle swirl round the
// core (fastest near it), while the ring rises `travel` units and starts again.
struct VortexRingParams {
  Vec3 origin{0.0f, 0.0f, 0.0f};  // centre of the ring at the start of its travel
  float ring_radius = 3.0f;       // radius of the core circle
  float core_radius = 0.35f;      // the swirl is fastest at this distance from the core
  float tube_radius = 1.1f;       // particles start within this distance of the core
  float core_speed = 2.5f;        // swirl speed at core_radius, units per second
  float rise_speed = 0.8f;        // speed of the ring along +y
  float travel = 8.0f;            // distance risen before the ring starts again
  float twirl = 0.15f;            // angular speed about the ring's axis, radians per second
};

// Repeated bursts: `bursts` launch sites take turns, each bursting every `period` seconds into
// `stars` stars that fly out against linear-ish drag and fall under gravity, each drawn as a
// trail of particles following it, coloured by age.
struct FireworksParams {
  Vec3 centre{0.0f, 6.0f, 0.0f};  // middle of the box bursts happen in
  Vec3 spread{5.0f, 2.0f, 5.0f};  // half-extents of that box
  int bursts = 6;                 // bursts in flight at once (launch sites)
  float period = 2.4f;            // seconds between bursts of one site: a particle's lifetime
  float speed = 6.0f;             // typical launch speed, units per second
  float drag = 1.6f;              // 1 / seconds
  float gravity = 3.0f;           // downward acceleration
  int stars = 300;                // stars a burst throws; its particles share them as trails
  float trail = 0.3f;             // seconds a star's trail lags behind it
};

// Particles streaming along the Lorenz attractor, which is drawn with its z axis up (+y).
struct AttractorParams {
  float sigma = 10.0f;
  float rho = 28.0f;
  float beta = 2.6666667f;
  float speed = 0.35f;            // attractor time units per second
  float scale = 0.3f;             // world units per attractor unit
  Vec3 centre{0.0f, 0.0f, 0.0f};  // where the attractor's point (0, 0, rho - 1) is drawn
};

// Concentric spheres, alternately coloured, turning in alternate directions about axes tilted
// alternately either way; longitude stripes make the turning visible.
struct ShellsParams {
  int shells = 5;
  float inner_radius = 2.0f;
  float outer_radius = 6.0f;
  float spin = 0.4f;   // angular speed of the innermost shell, radians per second
  float tilt = 0.35f;  // radians each axis leans from +y, the sign alternating
  int stripes = 6;     // pairs of light and dim longitude stripes per shell; 0: none
};

// Falling flakes filling a box (wrapping round it), swaying as they fall; warm near a lantern,
// cold far from it.
struct SnowParams {
  Vec3 box_min{-12.0f, -2.0f, -12.0f};
  Vec3 box_max{12.0f, 8.0f, 12.0f};
  float fall_speed = 0.9f;      // typical fall speed, units per second
  float sway = 0.35f;           // amplitude of the sideways sway, units
  float sway_period = 3.0f;     // seconds
  Vec3 wind{0.3f, 0.0f, 0.1f};  // steady drift, units per second
  Vec3 lantern{0.0f, 1.5f, 0.0f};
  float lantern_radius = 6.0f;  // flakes within this distance take colors.inner's warmth
};

// One point of a point cloud as the points model reads it: where it sits before any motion, and
// the colour it is drawn with (pack_rgba8's layout), 16 bytes so the GPU reads it in one load.
struct alignas(16) PointRecord {
  float x, y, z;
  std::uint32_t rgba8;
};
static_assert(sizeof(PointRecord) == 16);

enum class PointMotion : int { still, turntable, breathing };

// A point cloud read from a file (app/scene/ply_reader.hpp), drawn as it is or moving gently as a
// whole: turning about a vertical axis through its centre, or swelling and shrinking about it.
// Particle i is records[i % record_count]; the pipelines fill records at reset with their own
// copy of the scene's points (host memory on the CPU, device memory on CUDA), resampled to the
// particle count (core/point_cloud.hpp), so `records` always points into the memory of the code
// that runs the model.
struct PointsParams {
  const PointRecord* records = nullptr;
  std::uint32_t record_count = 0;
  PointMotion motion = PointMotion::still;
  Vec3 centre{0.0f, 0.0f,
              0.0f};        // of the cloud's bounding box: the turntable's axis goes through it
  float speed = 0.3f;       // turntable: radians per second about +y
  float period = 6.0f;      // breathing: seconds per breath
  float amplitude = 0.04f;  // breathing: the cloud's size swings by this share either way
};

// Every parameter set is present; `model` says which one is used. This keeps the struct
// trivially copyable into a kernel argument.
struct ModelParams {
  Model model = Model::galaxy;
  GalaxyParams galaxy;
  FountainParams fountain;
  SmokeParams smoke;
  VortexRingParams vortex_ring;
  FireworksParams fireworks;
  AttractorParams attractor;
  ShellsParams shells;
  SnowParams snow;
  PointsParams points;
  // Each model says what it uses them for (docs/scenes.md); e.g. galaxy core / rim.
  Color color_inner{1.0f, 0.85f, 0.6f, 0.9f};
  Color color_outer{0.3f, 0.5f, 1.0f, 0.6f};
  std::uint32_t seed = 1;
};

}  // namespace particles
