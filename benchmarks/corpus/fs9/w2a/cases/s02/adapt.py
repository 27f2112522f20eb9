import torch
from transformers import BertConfig, BertForMaskedLM


def build_model(cfg):
    config = BertConfig(**cfg)
    return BertForMaskedLM(config)


def set_trainable(model, train_encoder):
    for param in model.bert.parameters():
        param.requires_grad = train_encoder


def mask_tokens(input_ids, mask_prob, mask_token_id, generator):
    labels = input_ids.clone()
    probs = torch.rand(input_ids.shape, generator=generator)
    masked = probs < mask_prob
    labels[~masked] = -100
    inputs = input_ids.clone()
    inputs[masked] = mask_token_id
    return inputs, labels


class DomainAdapter:
    def __init__(self, model, sched):
        self.model = model
        self.sched = sched
        trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.Adam(trainable, lr=sched["lr"])

    def step(self, input_ids, generator):
        inputs, labels = mask_tokens(input_ids, self.sched["mask_prob"],
                                     self.sched["mask_token_id"], generator)
        out = self.model(input_ids=inputs, attention_mask=torch.ones_like(inputs), labels=labels)
        self.optimizer.zero_grad()
        out.loss.backward()
        self.optimizer.step()
        return out.loss.item()
