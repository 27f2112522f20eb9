import torch

from distill import test, train, train_knowledge_distillation
from nets import DeepNN, LightNN

CFG = dict(num_classes=10, n_train=256, n_test=64, batch_size=32, teacher_epochs=2,
           student_epochs=2, lr=1e-3, T=2.0, soft_target_loss_weight=0.25, ce_loss_weight=0.75)


def make_loader(n, cfg, g):
    labels = torch.randint(0, cfg["num_classes"], (n,), generator=g)
    prototypes = torch.randn(cfg["num_classes"], 3, 16, 16, generator=torch.Generator().manual_seed(7))
    images = prototypes[labels] + 0.8 * torch.randn(n, 3, 16, 16, generator=g)
    return [(images[i:i + cfg["batch_size"]], labels[i:i + cfg["batch_size"]])
            for i in range(0, n, cfg["batch_size"])]


def main(cfg):
    torch.manual_seed(42)
    g = torch.Generator().manual_seed(42)
    train_loader = make_loader(cfg["n_train"], cfg, g)
    test_loader = make_loader(cfg["n_test"], cfg, g)

    teacher = DeepNN(num_classes=cfg["num_classes"])
    train(teacher, train_loader, epochs=cfg["teacher_epochs"], lr=cfg["lr"])
    print(f"teacher accuracy: {test(teacher, test_loader):.2f}%")

    student = LightNN(num_classes=cfg["num_classes"])
    train_knowledge_distillation(teacher=teacher, student=student, loader=train_loader,
                                 epochs=cfg["student_epochs"], lr=cfg["lr"], T=cfg["T"],
                                 soft_target_loss_weight=cfg["soft_target_loss_weight"],
                                 ce_loss_weight=cfg["ce_loss_weight"])
    print(f"student accuracy: {test(student, test_loader):.2f}%")


if __name__ == "__main__":
    main(CFG)
