import torch
import torch.nn as nn
import torch.nn.functional as F

from beats import BEATs, BEATsConfig


class AudioTagger(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.beats = BEATs(BEATsConfig())
        self.head = nn.Linear(self.beats.cfg.encoder_embed_dim, num_classes)

    def forward(self, wave):
        feats = self.beats.extract_features(wave)
        return self.head(feats.mean(dim=1))


def main():
    torch.manual_seed(0)
    num_classes = 6
    model = AudioTagger(num_classes)
    optimizer = torch.optim.AdamW([
        {"params": model.beats.parameters(), "lr": 5e-5},
        {"params": model.head.parameters(), "lr": 1e-3},
    ], weight_decay=0.01)
    model.train()
    for step in range(3):
        wave = torch.randn(4, 16000 // 2)
        targets = (torch.rand(4, num_classes) > 0.7).float()
        logits = model(wave)
        loss = F.binary_cross_entropy_with_logits(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
