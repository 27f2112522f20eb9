class Normalize:
    """Channel-wise (x - mean) / std on a CxHxW tensor, like torchvision's Normalize."""

    def __init__(self, mean, std):
        self.mean = mean
        self.std = std

    def __call__(self, tensor):
        for t, m, s in zip(tensor, self.mean, self.std):
            t.sub_(m).div_(s)
        return tensor
