import torch
from torch import optim


class NERTrainer:
    def __init__(self, train_data, model, label_map, args):
        self.train_data = train_data
        self.model = model
        self.label_map = label_map
        self.args = args
        self.step = 0
        self.multiModal_before_train()

    def train(self):
        self.model.train()
        for epoch in range(1, self.args.num_epochs + 1):
            avg_loss = 0.0
            for batch in self.train_data:
                self.step += 1
                input_ids, token_type_ids, attention_mask, labels, images = batch
                logits, loss = self.model(input_ids=input_ids, attention_mask=attention_mask,
                                          token_type_ids=token_type_ids, labels=labels, images=images)
                avg_loss += loss.item()
                loss.backward()
                self.optimizer.step()
                self.scheduler.step()
                self.optimizer.zero_grad()
            print(f"epoch {epoch}: loss {avg_loss / len(self.train_data):.4f}")

    def multiModal_before_train(self):
        parameters = []
        params = {"lr": self.args.lr, "weight_decay": 1e-2}
        params["params"] = []
        for name, param in self.model.named_parameters():
            if "bert" in name:
                params["params"].append(param)
        parameters.append(params)

        params = {"lr": self.args.lr, "weight_decay": 1e-2}
        params["params"] = []
        for name, param in self.model.named_parameters():
            if "encoder_conv" in name or "gates" in name:
                params["params"].append(param)
        parameters.append(params)

        params = {"lr": 5e-2, "weight_decay": 1e-2}
        params["params"] = []
        for name, param in self.model.named_parameters():
            if "crf" in name or name.startswith("fc"):
                params["params"].append(param)

        self.optimizer = optim.AdamW(parameters)
        self.scheduler = optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda s: min(1.0, (s + 1) / self.args.warmup_steps))
