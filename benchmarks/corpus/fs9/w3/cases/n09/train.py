import torch

from distill import FeatureDistiller, GradNormMonitor
from nets import SmallCNN

CONFIG = {
    "student_widths": [8, 16, 32], "teacher_widths": [16, 32, 64],
    "pairs": [("layer2", "layer3", 32, 64), ("layer1", "layer1", 16, 32)],
    "alpha": 0.7, "temperature": 4.0, "logit_clip": 0.05, "lr": 0.02, "steps": 10,
}


def main(cfg=CONFIG):
    torch.manual_seed(0)
    student = SmallCNN(cfg["student_widths"])
    teacher = SmallCNN(cfg["teacher_widths"])
    distiller = FeatureDistiller(student, teacher, cfg["pairs"], cfg["alpha"],
                                 cfg["temperature"], cfg["logit_clip"])
    monitor = GradNormMonitor(student, ["layer1", "layer3"])
    params = [p for p in distiller.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=cfg["lr"], momentum=0.9, nesterov=True)
    distiller.train()
    for step in range(cfg["steps"]):
        x = torch.randn(16, 3, 32, 32)
        y = torch.randint(0, 10, (16,))
        loss, _ = distiller(x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 3 == 0:
            print(f"step {step} loss {loss.item():.4f} "
                  f"|g| layer1 {monitor.norms['layer1'][-1]:.2e} layer3 {monitor.norms['layer3'][-1]:.2e}")
    return distiller, monitor


if __name__ == "__main__":
    distiller, monitor = main()
