import torch
import torch.nn as nn

from model import GaussianDiffusion, Unet1D

torch.manual_seed(0)

BATCH = 8
raw_signals = torch.randn(64, 3, 32)  # 64 recordings, 3 sensors, 32 samples

# the network expects 8 channels, so project the 3 sensor channels once up front
to_channels = nn.Conv1d(3, 8, kernel_size=1)
training_seq = to_channels(raw_signals)

diffusion = GaussianDiffusion(Unet1D(channels=8))
optimizer = torch.optim.Adam(diffusion.parameters(), lr=1e-3)


def batches(data, batch_size):
    for start in range(0, data.shape[0], batch_size):
        yield data[start:start + batch_size]


for epoch in range(2):
    for step, x0 in enumerate(batches(training_seq, BATCH)):
        loss = diffusion(x0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 4 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
