import torch

from networks import DepthNet


class Trainer:
    def __init__(self):
        self.model = DepthNet()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def process_batch(self, inputs):
        with torch.no_grad():
            disp = self.model(inputs["color"])
            losses = self.compute_losses(inputs, disp)
        return disp, losses

    def compute_losses(self, inputs, disp):
        l1 = (disp - inputs["target_disp"]).abs().mean()
        smooth = (disp[..., 1:] - disp[..., :-1]).abs().mean()
        return {"loss": l1 + 1e-3 * smooth, "l1": l1}

    def run_epoch(self, loader):
        self.model.train()
        for batch_idx, inputs in enumerate(loader):
            _, losses = self.process_batch(inputs)
            self.optimizer.zero_grad()
            losses["loss"].backward()
            self.optimizer.step()
            print(f"batch {batch_idx}: loss {losses['loss'].item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = [{"color": torch.randn(2, 3, 16, 16), "target_disp": torch.rand(2, 1, 16, 16)} for _ in range(3)]
    Trainer().run_epoch(loader)
