import torch
import torch.nn.functional as F

from unet import UNet


class SourceFreeAdapter:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.model.outc.requires_grad = False
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def entropy_step(self, images):
        probs = F.softmax(self.model(images), dim=1)
        entropy = -(probs * torch.log(probs + 1e-6)).sum(dim=1).mean()
        self.optimizer.zero_grad()
        entropy.backward()
        self.optimizer.step()
        return entropy.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    source_model = UNet()
    adapter = SourceFreeAdapter(source_model)
    before = source_model.outc.weight.detach().clone()
    for it in range(3):
        ent = adapter.entropy_step(torch.randn(2, 1, 16, 16))
        print(f"iter {it}: entropy {ent:.4f}")
    print("frozen classifier changed:", not torch.equal(before, source_model.outc.weight))
