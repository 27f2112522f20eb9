import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


class FinetuneTrainer:
    def __init__(self, model, args, train_dataset, eval_dataset=None):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.eval_dataset = eval_dataset
        if args["gradient_checkpointing"]:
            model.gradient_checkpointing_enable(
                gradient_checkpointing_kwargs=args["gradient_checkpointing_kwargs"])
        params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=args["learning_rate"],
                                           weight_decay=args["weight_decay"])

    def compute_loss(self, pixel_values, labels):
        logits = self.model(pixel_values=pixel_values).logits
        return F.cross_entropy(logits, labels, label_smoothing=self.args["label_smoothing"])

    @torch.no_grad()
    def evaluate(self):
        if self.eval_dataset is None:
            return None
        self.model.eval()
        correct = total = 0
        for pixel_values, labels in DataLoader(self.eval_dataset, batch_size=8):
            pred = self.model(pixel_values=pixel_values).logits.argmax(-1)
            correct += (pred == labels).sum().item()
            total += labels.numel()
        self.model.train()
        return correct / total

    def train(self):
        self.model.train()
        loader = DataLoader(self.train_dataset, batch_size=self.args["per_device_train_batch_size"],
                            shuffle=True)
        step = 0
        for epoch in range(self.args["num_train_epochs"]):
            for pixel_values, labels in loader:
                loss = self.compute_loss(pixel_values, labels)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                step += 1
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} acc {self.evaluate()}")
