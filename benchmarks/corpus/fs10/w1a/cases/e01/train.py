import torch
import torch.nn.functional as F

from model import build_model

CONFIG = {
    "student": {"hidden_size": 32, "num_layers": 2},
    "teacher": {"hidden_size": 64, "num_layers": 3},
    "alpha_ce": 0.5,
    "alpha_qa": 0.5,
    "temperature": 2.0,
    "lr": 3e-4,
    "steps": 3,
    "batch_size": 4,
    "seq_len": 24,
}


def kd_loss(student_logits, teacher_logits, temperature):
    s = F.log_softmax(student_logits / temperature, dim=-1)
    t = F.softmax(teacher_logits / temperature, dim=-1)
    return F.kl_div(s, t, reduction="batchmean") * temperature ** 2


def get_batch(cfg):
    input_ids = torch.randint(1, 200, (cfg["batch_size"], cfg["seq_len"]))
    attention_mask = torch.ones_like(input_ids)
    start = torch.randint(0, cfg["seq_len"] + 4, (cfg["batch_size"],))
    end = (start + torch.randint(0, 4, (cfg["batch_size"],)))
    return {"input_ids": input_ids, "attention_mask": attention_mask,
            "start_positions": start, "end_positions": end}


def train(cfg):
    student = build_model(**cfg["student"])
    teacher = build_model(**cfg["teacher"]).eval()
    optimizer = torch.optim.AdamW(student.parameters(), lr=cfg["lr"])

    for step in range(cfg["steps"]):
        batch = get_batch(cfg)
        student_out = student(**batch)
        with torch.no_grad():
            teacher_out = teacher(**batch)

        loss_ce = (kd_loss(student_out["start_logits"], teacher_out["start_logits"], cfg["temperature"])
                   + kd_loss(student_out["end_logits"], teacher_out["end_logits"], cfg["temperature"])) / 2
        loss = cfg["alpha_ce"] * loss_ce + cfg["alpha_qa"] * student_out["loss"]

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(CONFIG)
