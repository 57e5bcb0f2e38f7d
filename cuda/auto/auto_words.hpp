#pragma once
// Auto's enable words in device memory (AutoSort::words_): AutoSort::reset sets
// them and the recorded frame's kernels read and write them. The choice sets the sorts' and the
// finish's from the probe and from PartitionTries, which it keeps from frame to frame in two
// more; the partition sort, when it runs, sets kRadixRuns (1: it refused, and radix runs; a
// partition stint's sort never refuses) and kFinishRuns (0: it wrote the target and the
// splitters itself).
namespace particles::cuda {

enum AutoWord : int {
  kOddEvenRuns = 0,
  kRadixRuns = 1,
  kPartitionRuns = 2,
  kTriesWait = 3,
  kTriesTried = 4,
  kFinishRuns = 5,  // the order copy to the target and the splitters
  kAlwaysOne = 6,   // set by reset(): a partition stint's partition sort always runs
  kAutoWords = 7
};

}  // namespace particles::cuda
