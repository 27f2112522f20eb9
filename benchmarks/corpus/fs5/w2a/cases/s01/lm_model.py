import math
import random

import torch

import compat  # noqa: F401
from torch.optim import AdamW
from transformers import BertConfig, BertForMaskedLM


DEFAULT_ARGS = {
    "num_train_epochs": 2,
    "learning_rate": 5e-4,
    "max_grad_norm": 1.0,
    "mlm_probability": 0.15,
    "evaluate_during_training": False,
    "evaluate_during_training_steps": 2000,
    "manual_seed": 42,
    "logging_steps": 5,
}


def mask_tokens(inputs, vocab_size, mask_token_id, special_ids, mlm_probability):
    labels = inputs.clone()
    probability_matrix = torch.full(labels.shape, mlm_probability)
    special_mask = torch.zeros_like(labels, dtype=torch.bool)
    for sid in special_ids:
        special_mask |= labels.eq(sid)
    probability_matrix.masked_fill_(special_mask, 0.0)
    masked_indices = torch.bernoulli(probability_matrix).bool()
    labels[~masked_indices] = -100

    inputs = inputs.clone()
    replaced = torch.bernoulli(torch.full(labels.shape, 0.8)).bool() & masked_indices
    inputs[replaced] = mask_token_id
    random_words = torch.bernoulli(torch.full(labels.shape, 0.5)).bool() & masked_indices & ~replaced
    inputs[random_words] = torch.randint(vocab_size, labels.shape)[random_words]
    return inputs, labels


class LanguageModelingModel:
    def __init__(self, model_config, args=None):
        self.args = dict(DEFAULT_ARGS)
        if args:
            self.args.update(args)
        random.seed(self.args["manual_seed"])
        torch.manual_seed(self.args["manual_seed"])
        self.config = BertConfig(**model_config)
        self.model = BertForMaskedLM(self.config)
        self.special_ids = (self.config.pad_token_id, 1, 2, 3)
        self.mask_token_id = 4

    def _batch_to_inputs(self, batch):
        return mask_tokens(
            batch,
            self.config.vocab_size,
            self.mask_token_id,
            self.special_ids,
            self.args["mlm_probability"],
        )

    def train_model(self, train_batches, eval_batches=None):
        model = self.model
        args = self.args
        no_decay = ["bias", "LayerNorm.weight"]
        grouped = [
            {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
             "weight_decay": 0.01},
            {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
             "weight_decay": 0.0},
        ]
        optimizer = AdamW(grouped, lr=args["learning_rate"])

        global_step = 0
        tr_loss, logging_loss = 0.0, 0.0
        training_progress_scores = []
        for epoch in range(args["num_train_epochs"]):
            model.train()
            for step, batch in enumerate(train_batches):
                inputs, labels = self._batch_to_inputs(batch)
                outputs = model(input_ids=inputs, labels=labels)
                loss = outputs.loss
                loss.backward()
                tr_loss += loss.item()

                torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
                optimizer.step()
                model.zero_grad()
                global_step += 1

                if global_step % args["logging_steps"] == 0:
                    print(f"step {global_step}: loss {(tr_loss - logging_loss) / args['logging_steps']:.4f}")
                    logging_loss = tr_loss

                if args["evaluate_during_training"] and global_step % args["evaluate_during_training_steps"] == 0:
                    results = self.eval_model(eval_batches)
                    training_progress_scores.append((global_step, results["eval_loss"]))

        return global_step, training_progress_scores

    def eval_model(self, eval_batches):
        model = self.model
        model.eval()
        eval_loss, nb_eval_steps = 0.0, 0
        generator_state = torch.get_rng_state()
        torch.manual_seed(1234)
        for batch in eval_batches:
            inputs, labels = self._batch_to_inputs(batch)
            with torch.no_grad():
                outputs = model(input_ids=inputs, labels=labels)
                eval_loss += outputs.loss.item()
            nb_eval_steps += 1
        torch.set_rng_state(generator_state)
        eval_loss = eval_loss / max(nb_eval_steps, 1)
        return {"eval_loss": eval_loss, "perplexity": math.exp(eval_loss)}
