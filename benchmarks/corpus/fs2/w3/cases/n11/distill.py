import torch
import torch.nn as nn


def train(model, loader, epochs, lr):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for inputs, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()


def train_knowledge_distillation(teacher, student, loader, epochs, lr, T,
                                 soft_target_loss_weight, ce_loss_weight):
    ce_loss = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(student.parameters(), lr=lr)
    teacher.eval()
    student.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in loader:
            optimizer.zero_grad()
            with torch.no_grad():
                teacher_logits = teacher(inputs)
            student_logits = student(inputs)

            soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
            log_soft_targets = nn.functional.log_softmax(teacher_logits / T, dim=-1)
            soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
            soft_targets_loss = torch.sum(soft_targets * (log_soft_targets - soft_prob)) \
                / soft_prob.size()[0] * (T ** 2)
            label_loss = ce_loss(student_logits, labels)
            loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"distill epoch {epoch + 1}/{epochs}, loss: {running_loss / len(loader):.4f}")


@torch.no_grad()
def test(model, loader):
    model.eval()
    correct = total = 0
    for inputs, labels in loader:
        correct += (model(inputs).argmax(1) == labels).sum().item()
        total += labels.numel()
    return 100 * correct / total
