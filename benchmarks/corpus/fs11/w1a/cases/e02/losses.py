import torch
import torch.nn.functional as F


class MultiScaleSTFTLoss:
    def __init__(self, window_lengths=(64, 128)):
        self.window_lengths = window_lengths

    def __call__(self, x, y):
        loss = 0.0
        for w in self.window_lengths:
            win = torch.hann_window(w)
            X = torch.stft(x.squeeze(1), w, w // 4, window=win, return_complex=True).abs()
            Y = torch.stft(y.squeeze(1), w, w // 4, window=win, return_complex=True).abs()
            loss = loss + F.l1_loss(X.clamp(1e-5).log10(), Y.clamp(1e-5).log10())
            loss = loss + F.l1_loss(X, Y)
        return loss


class L1Loss:
    def __call__(self, x, y):
        return F.l1_loss(x, y)
