import torch


class GridPatchSampler:
    def __init__(self, patch_size):
        self.patch_size = patch_size

    @torch.no_grad()
    def __call__(self, volume):
        p = self.patch_size
        locations = []
        patches = volume[:, :, :p, :p, :p].contiguous()
        for _ in range(volume.shape[0]):
            locations.append(((0, 0, 0), (p, p, p)))
        return patches, locations


class RandomPatchSampler:
    def __init__(self, patch_size, seed=0):
        self.patch_size = patch_size
        self.gen = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def __call__(self, volume):
        p = self.patch_size
        D = volume.shape[2]
        z, y, x = (int(v) for v in torch.randint(0, D - p + 1, (3,), generator=self.gen))
        locations = [((z, y, x), (z + p, y + p, x + p)) for _ in range(volume.shape[0])]
        patches = volume[:, :, z:z + p, y:y + p, x:x + p]
        return patches, locations


SAMPLERS = {"grid": GridPatchSampler, "random": RandomPatchSampler}


def build_sampler(cfg):
    return SAMPLERS[cfg["sampler"]](cfg["patch_size"])


def synthetic_volumes(n, channels, size, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(n, channels, size, size, size, generator=gen)
