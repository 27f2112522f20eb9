import torch

from losses import L1Loss, MultiScaleSTFTLoss
from model import DAC

torch.manual_seed(0)

LAMBDAS = {
    "stft/loss": 1.0,
    "waveform/loss": 1.0,
    "vq/commitment_loss": 0.25,
    "vq/codebook_loss": 1.0,
}


class State:
    def __init__(self):
        self.generator = DAC()
        self.optimizer_g = torch.optim.AdamW(self.generator.parameters(), lr=1e-4)
        self.stft_loss = MultiScaleSTFTLoss()
        self.waveform_loss = L1Loss()


class Accelerator:
    def __init__(self, amp=False):
        self.scaler = torch.amp.GradScaler("cpu", enabled=amp)

    def backward(self, loss):
        self.scaler.scale(loss).backward()

    def step(self, optimizer):
        self.scaler.step(optimizer)

    def update(self):
        self.scaler.update()


def train_loop(state, batch, accel, lambdas):
    state.generator.train()
    signal = batch["signal"]
    out = state.generator(signal)
    recons = out["audio"]

    output = {}
    output["stft/loss"] = state.stft_loss(recons, signal)
    output["waveform/loss"] = state.waveform_loss(recons, signal)
    output["vq/commitment_loss"] = out["vq/commitment_loss"]
    output["vq/codebook_loss"] = out["vq/codebook_loss"]
    output["loss"] = sum([v * output[k] for k, v in lambdas.items() if k in output])

    state.optimizer_g.zero_grad()
    accel.backward(output["loss"])
    accel.step(state.optimizer_g)
    accel.update()
    return {k: v.mean().item() for k, v in output.items()}


def train(num_iters=3, batch_size=4):
    state = State()
    accel = Accelerator(amp=False)
    for it in range(num_iters):
        batch = {"signal": torch.rand(batch_size, 1, 1024) * 2 - 1}
        logs = train_loop(state, batch, accel, LAMBDAS)
        print(it, {k: round(v, 4) for k, v in logs.items()})


if __name__ == "__main__":
    train()
