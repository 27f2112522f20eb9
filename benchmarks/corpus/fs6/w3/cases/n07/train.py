import torch
import torch.nn.functional as F

from distill import FeatureRecorder, HintLoss, kd_loss
from nets import student_net, teacher_net

opts = {
    "hint_layers": [(("stage2", 16), ("stage2", 32)), (("stage3", 32), ("stage3", 64))],
    "T": 4.0, "alpha": 0.7, "beta": 10.0, "grad_clip_value": 1.0,
    "epochs": 2, "batch_size": 16, "lr": 0.05,
}


def main():
    torch.manual_seed(3)
    teacher = teacher_net().eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    student = student_net()
    hint = HintLoss(opts["hint_layers"])

    s_rec = FeatureRecorder(student, [s for (s, _), _ in opts["hint_layers"]])
    t_rec = FeatureRecorder(teacher, [t for _, (t, _) in opts["hint_layers"]])

    params = list(student.parameters()) + list(hint.parameters())
    for p in params:
        p.register_hook(lambda g: g.clamp(-opts["grad_clip_value"], opts["grad_clip_value"]))
    optimizer = torch.optim.SGD(params, lr=opts["lr"], momentum=0.9, nesterov=True)

    images = torch.randn(48, 3, 16, 16)
    labels = torch.randint(0, 10, (48,))
    for epoch in range(opts["epochs"]):
        student.train()
        for x, y in zip(images.split(opts["batch_size"]), labels.split(opts["batch_size"])):
            s_rec.clear()
            t_rec.clear()
            with torch.no_grad():
                t_logits = teacher(x)
            s_logits = student(x)
            loss_ce = F.cross_entropy(s_logits, y)
            loss_kd = kd_loss(s_logits, t_logits, opts["T"])
            loss_hint = hint(s_rec.features, t_rec.features)
            loss = (1 - opts["alpha"]) * loss_ce + opts["alpha"] * loss_kd + opts["beta"] * loss_hint
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} ce {loss_ce.item():.4f} kd {loss_kd.item():.4f} hint {loss_hint.item():.4f}")

    s_rec.remove()
    t_rec.remove()
    student.eval()
    with torch.no_grad():
        acc = (student(images).argmax(1) == labels).float().mean().item()
    print(f"student train acc {acc:.3f}")


if __name__ == "__main__":
    main()
