import torch

# per-channel mean of the (BGR, [-1, 1]-scaled) ImageNet images the loss network expects
MEAN_BGR = (-0.185, -0.084, 0.033)


def gram_matrix(y):
    b, ch, h, w = y.size()
    features = y.view(b, ch, h * w)
    return features.bmm(features.transpose(1, 2)) / (ch * h * w)


def subtract_imagenet_mean_batch(batch):
    """Subtract the ImageNet mean pixel-wise from a BGR batch."""
    mean = torch.tensor(MEAN_BGR, dtype=batch.dtype).view(1, 3, 1, 1)
    batch -= mean


def preprocess_batch(batch):
    r, g, b = torch.chunk(batch, 3, dim=1)
    return torch.cat((b, g, r), dim=1)
