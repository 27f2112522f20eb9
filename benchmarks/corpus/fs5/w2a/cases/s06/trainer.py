def fit(train_loader, model, loss_fn, optimizer, scheduler, n_epochs, log_interval=10, start_epoch=0):
    for epoch in range(0, start_epoch):
        scheduler.step()

    for epoch in range(start_epoch, n_epochs):
        train_loss = train_epoch(train_loader, model, loss_fn, optimizer, log_interval)
        scheduler.step()
        print(f"Epoch: {epoch + 1}/{n_epochs}. Train set: Average loss: {train_loss:.4f}")


def train_epoch(train_loader, model, loss_fn, optimizer, log_interval):
    model.train()
    losses = []
    total_loss = 0
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        outputs = model(*data)
        loss_outputs = loss_fn(*outputs, target)
        loss = loss_outputs[0] if isinstance(loss_outputs, (tuple, list)) else loss_outputs
        losses.append(loss.item())
        total_loss += loss.item()
        loss.backward()
        optimizer.step()

        if batch_idx % log_interval == 0:
            print(f"Train: [{batch_idx * len(target)}/{len(train_loader.dataset)}]\tLoss: {sum(losses) / len(losses):.6f}")
            losses = []

    return total_loss / (batch_idx + 1)
