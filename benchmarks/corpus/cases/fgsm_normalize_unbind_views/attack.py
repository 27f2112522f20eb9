import torch
import torch.nn as nn

from attack_algos import iterative_fgsm


class DeepfakeDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, 2)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DeepfakeDetector().eval()
    for frame_id in range(2):
        face = torch.rand(3, 48, 48)
        adv_face = iterative_fgsm(face, model)
        print(f"frame {frame_id}: max perturbation {(adv_face - face).abs().max().item():.3f}")
