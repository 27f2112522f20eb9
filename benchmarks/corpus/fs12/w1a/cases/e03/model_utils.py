import torch
import torch.nn as nn


class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, eps=0.1, reduction="mean", ignore_index=-100):
        super().__init__()
        self.eps = eps
        self.reduction = reduction
        self.ignore_index = ignore_index

    def forward(self, logits, target):
        c = logits.size(-1)
        log_preds = torch.log_softmax(logits, dim=-1)
        keep = (target != self.ignore_index).float()
        smooth = -log_preds.sum(dim=-1) * keep
        nll = nn.functional.nll_loss(log_preds, target, reduction="none", ignore_index=self.ignore_index)
        loss = smooth * self.eps / c + (1 - self.eps) * nll
        if self.reduction == "sum":
            return loss.sum()
        if self.reduction == "mean":
            return loss.sum() / keep.sum().clamp(min=1)
        return loss


class TinyEncoder(nn.Module):
    def __init__(self, vocab_size, hidden, layers=2, heads=4):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden, padding_idx=0)
        layer = nn.TransformerEncoderLayer(hidden, heads, dim_feedforward=hidden * 2,
                                           dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)

    def forward(self, token_ids, attention_masks):
        x = self.embeddings(token_ids)
        return self.encoder(x, src_key_padding_mask=attention_masks == 0)


class CRFlessTokenModel(nn.Module):
    def __init__(self, vocab_size, num_tags, hidden=64, dropout_prob=0.1, loss_type="ce"):
        super().__init__()
        self.bert_module = TinyEncoder(vocab_size, hidden)
        self.mid_linear = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout_prob))
        self.classifier = nn.Linear(hidden, num_tags)

        reduction = "none"
        if loss_type == "ce":
            self.criterion = nn.CrossEntropyLoss(reduction=reduction)
        elif loss_type == "ls_ce":
            self.criterion = LabelSmoothingCrossEntropy(reduction=reduction)
        else:
            raise ValueError(loss_type)

    def forward(self, token_ids, attention_masks, labels=None):
        seq_out = self.bert_module(token_ids, attention_masks)
        logits = self.classifier(self.mid_linear(seq_out))
        out = (logits,)
        if labels is not None:
            active = attention_masks.view(-1) == 1
            active_logits = logits.view(-1, logits.size(-1))[active]
            active_labels = labels.view(-1)[active]
            loss = self.criterion(active_logits, active_labels)
            out = (loss,) + out
        return out
