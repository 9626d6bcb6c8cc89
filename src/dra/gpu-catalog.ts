// The simulated GPU models: what nvidia-smi and NVML report for each (product name, architecture,
// compute capability, memory, SMs, engines) and their MIG GPU-instance profiles with the
// placements NVIDIA documents. Spec: shared/spec/dra.md §10. Memory values are MiB as
// `nvidia-smi mig -lgip` prints them; entries marked [U] in the spec are by analogy.

export interface MigPlacement {
  /** First memory slice. */
  readonly start: number;
  /** Number of memory slices. */
  readonly size: number;
}

/** The engines a MIG instance (or the whole GPU) owns; counters and capacities derive from it. */
export interface GpuEngines {
  readonly multiprocessors: number;
  readonly copyEngines: number;
  readonly decoders: number;
  readonly encoders: number;
  readonly jpegEngines: number;
  readonly ofaEngines: number;
}

export interface MigProfile extends GpuEngines {
  /** As nvidia-smi prints it: `1g.10gb`, `1g.10gb+me`. */
  readonly name: string;
  /** GPU-instance profile ID (`nvidia-smi mig -lgip`). */
  readonly giProfileId: number;
  readonly computeSlices: number;
  readonly memorySlices: number;
  readonly memoryMiB: number;
  readonly maxInstances: number;
  readonly placements: readonly MigPlacement[];
}

export interface GpuModel {
  /** The catalog key used in the cluster config (`H100-80GB`). */
  readonly model: string;
  /** NVML device name, e.g. `NVIDIA H100 80GB HBM3`. */
  readonly productName: string;
  readonly brand: 'Nvidia';
  readonly architecture: string;
  /** Semver form, as the DRA driver publishes it (`9.0.0`). */
  readonly cudaComputeCapability: string;
  readonly memoryMiB: number;
  /** SMs of the full GPU (MIG's 7g profile may expose fewer). */
  readonly multiprocessors: number;
  /** Memory slices of the MIG geometry; 0 when the model has no MIG. */
  readonly memorySliceCount: number;
  readonly migProfiles: readonly MigProfile[];
}

/** Driver versions the simulated nodes report (semver form, as the DRA driver normalizes them). */
export const simulatedDriverVersion = '580.126.9';
export const simulatedCudaDriverVersion = '13.0.0';

const range = (starts: readonly number[], size: number): MigPlacement[] => starts.map((start) => ({ start, size }));

// Placements shared by A100/H100/H200 (7 compute slices, 8 memory slices), by profile kind.
const placements = {
  g1: range([0, 1, 2, 3, 4, 5, 6], 1),
  g1double: range([0, 2, 4, 6], 2),
  g2: range([0, 2, 4], 2),
  g3: range([0, 4], 4),
  g4: range([0], 4),
  g7: range([0], 8),
} as const;

type Row = [name: string, id: number, compute: number, memMiB: number, engines: [sm: number, ce: number, dec: number, enc: number, jpeg: number, ofa: number]];

function profiles(rows: readonly Row[]): MigProfile[] {
  return rows.map(([name, giProfileId, computeSlices, memoryMiB, [multiprocessors, copyEngines, decoders, encoders, jpegEngines, ofaEngines]]) => {
    const p = placementsFor(giProfileId);
    return {
      name,
      giProfileId,
      computeSlices,
      memorySlices: p[0]?.size ?? 0,
      memoryMiB,
      maxInstances: giProfileId === 20 ? 1 : p.length,
      placements: p,
      multiprocessors,
      copyEngines,
      decoders,
      encoders,
      jpegEngines,
      ofaEngines,
    };
  });
}

function placementsFor(giProfileId: number): readonly MigPlacement[] {
  switch (giProfileId) {
    case 19:
    case 20:
      return placements.g1;
    case 15:
      return placements.g1double;
    case 14:
      return placements.g2;
    case 9:
      return placements.g3;
    case 5:
      return placements.g4;
    case 0:
      return placements.g7;
    default:
      throw new Error(`unknown MIG GPU-instance profile ID ${giProfileId}`);
  }
}

const models: readonly GpuModel[] = [
  {
    model: 'A100-40GB',
    productName: 'NVIDIA A100-SXM4-40GB',
    brand: 'Nvidia',
    architecture: 'Ampere',
    cudaComputeCapability: '8.0.0',
    memoryMiB: 40960,
    multiprocessors: 108,
    memorySliceCount: 8,
    migProfiles: profiles([
      ['1g.5gb', 19, 1, 4864, [14, 1, 0, 0, 0, 0]],
      ['1g.5gb+me', 20, 1, 4864, [14, 1, 1, 0, 1, 1]],
      ['1g.10gb', 15, 1, 9856, [14, 1, 1, 0, 0, 0]],
      ['2g.10gb', 14, 2, 9856, [28, 2, 1, 0, 0, 0]],
      ['3g.20gb', 9, 3, 19968, [42, 3, 2, 0, 0, 0]],
      ['4g.20gb', 5, 4, 19968, [56, 4, 2, 0, 0, 0]],
      ['7g.40gb', 0, 7, 40192, [98, 7, 5, 0, 1, 1]],
    ]),
  },
  {
    model: 'A100-80GB',
    productName: 'NVIDIA A100-SXM4-80GB',
    brand: 'Nvidia',
    architecture: 'Ampere',
    cudaComputeCapability: '8.0.0',
    memoryMiB: 81920,
    multiprocessors: 108,
    memorySliceCount: 8,
    migProfiles: profiles([
      ['1g.10gb', 19, 1, 9728, [14, 1, 0, 0, 0, 0]],
      ['1g.10gb+me', 20, 1, 9728, [14, 1, 1, 0, 1, 1]],
      ['1g.20gb', 15, 1, 19968, [14, 1, 1, 0, 0, 0]],
      ['2g.20gb', 14, 2, 19968, [28, 2, 1, 0, 0, 0]],
      ['3g.40gb', 9, 3, 40192, [42, 3, 2, 0, 0, 0]],
      ['4g.40gb', 5, 4, 40192, [56, 4, 2, 0, 0, 0]],
      ['7g.80gb', 0, 7, 80896, [98, 7, 5, 0, 1, 1]],
    ]),
  },
  {
    model: 'H100-80GB',
    productName: 'NVIDIA H100 80GB HBM3',
    brand: 'Nvidia',
    architecture: 'Hopper',
    cudaComputeCapability: '9.0.0',
    memoryMiB: 81559,
    multiprocessors: 132,
    memorySliceCount: 8,
    migProfiles: profiles([
      ['1g.10gb', 19, 1, 9984, [16, 1, 1, 0, 1, 0]],
      ['1g.10gb+me', 20, 1, 9984, [16, 1, 1, 0, 1, 1]],
      ['1g.20gb', 15, 1, 20096, [26, 1, 1, 0, 1, 0]],
      ['2g.20gb', 14, 2, 20096, [32, 2, 2, 0, 2, 0]],
      ['3g.40gb', 9, 3, 40448, [60, 3, 3, 0, 3, 0]],
      ['4g.40gb', 5, 4, 40448, [64, 4, 4, 0, 4, 0]],
      ['7g.80gb', 0, 7, 81152, [132, 8, 7, 0, 7, 1]],
    ]),
  },
  {
    // Memory of the H200 profiles is nominal (from the profile names), engines as on H100 [U].
    model: 'H200-141GB',
    productName: 'NVIDIA H200',
    brand: 'Nvidia',
    architecture: 'Hopper',
    cudaComputeCapability: '9.0.0',
    memoryMiB: 143771,
    multiprocessors: 132,
    memorySliceCount: 8,
    migProfiles: profiles([
      ['1g.18gb', 19, 1, 17920, [16, 1, 1, 0, 1, 0]],
      ['1g.18gb+me', 20, 1, 17920, [16, 1, 1, 0, 1, 1]],
      ['1g.35gb', 15, 1, 35840, [26, 1, 1, 0, 1, 0]],
      ['2g.35gb', 14, 2, 35840, [32, 2, 2, 0, 2, 0]],
      ['3g.71gb', 9, 3, 71680, [60, 3, 3, 0, 3, 0]],
      ['4g.71gb', 5, 4, 71680, [64, 4, 4, 0, 4, 0]],
      ['7g.141gb', 0, 7, 143360, [132, 8, 7, 0, 7, 1]],
    ]),
  },
];

const byModel = new Map(models.map((m) => [m.model, m]));

/** Every catalog entry, in catalog order. */
export function gpuModels(): readonly GpuModel[] {
  return models;
}

export function findGpuModel(model: string): GpuModel | undefined {
  return byModel.get(model);
}

export function findMigProfile(model: GpuModel, profile: string): MigProfile | undefined {
  return model.migProfiles.find((p) => p.name === profile);
}

/** The largest profile (7g): its engines and memory are what a whole GPU offers to MIG. */
export function fullMigProfile(model: GpuModel): MigProfile | undefined {
  return model.migProfiles.reduce<MigProfile | undefined>((max, p) => (!max || p.computeSlices > max.computeSlices ? p : max), undefined);
}

/** Engines of the whole GPU as MIG counts them: per dimension the maximum over all profiles. */
export function migCapacity(model: GpuModel): GpuEngines & { memoryMiB: number } {
  const max = (f: (p: MigProfile) => number): number => Math.max(0, ...model.migProfiles.map(f));
  return {
    multiprocessors: max((p) => p.multiprocessors),
    copyEngines: max((p) => p.copyEngines),
    decoders: max((p) => p.decoders),
    encoders: max((p) => p.encoders),
    jpegEngines: max((p) => p.jpegEngines),
    ofaEngines: max((p) => p.ofaEngines),
    memoryMiB: max((p) => p.memoryMiB),
  };
}

/**
 * Placement of a static MIG layout on one GPU (what mig-parted applies for a list of profiles):
 * a depth-first search over the profiles in the order given, each trying its placements from
 * the lowest start, so the result is deterministic. Returns an error message when a profile is
 * unknown, too frequent, or the layout does not fit.
 */
export function placeStaticMig(model: GpuModel, layout: readonly string[]): { profile: MigProfile; placement: MigPlacement }[] | string {
  const wanted: MigProfile[] = [];
  for (const name of layout) {
    const profile = findMigProfile(model, name);
    if (!profile) return `GPU model ${model.model} has no MIG profile ${JSON.stringify(name)} (profiles: ${model.migProfiles.map((p) => p.name).join(', ')})`;
    if (wanted.filter((p) => p === profile).length >= profile.maxInstances) return `MIG profile ${name} allows at most ${profile.maxInstances} instance(s) per GPU`;
    wanted.push(profile);
  }
  const used = new Array<boolean>(model.memorySliceCount).fill(false);
  const out: { profile: MigProfile; placement: MigPlacement }[] = [];
  const place = (i: number): boolean => {
    const profile = wanted[i];
    if (!profile) return true;
    for (const p of profile.placements) {
      if (!used.slice(p.start, p.start + p.size).every((u) => !u)) continue;
      used.fill(true, p.start, p.start + p.size);
      out.push({ profile, placement: p });
      if (place(i + 1)) return true;
      out.pop();
      used.fill(false, p.start, p.start + p.size);
    }
    return false;
  };
  const engines = (f: (p: MigProfile) => number): number => wanted.reduce((sum, p) => sum + f(p), 0);
  const cap = migCapacity(model);
  if (engines((p) => p.multiprocessors) > cap.multiprocessors || engines((p) => p.decoders) > cap.decoders || !place(0)) {
    return `MIG layout [${layout.join(', ')}] does not fit on one ${model.model}`;
  }
  return out;
}
